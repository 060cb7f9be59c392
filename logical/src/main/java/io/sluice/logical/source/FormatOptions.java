package io.sluice.logical.source;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options a table or a write gives its file format ({@code OPTIONS (header 'true')},
 * {@code .option("header", "true")}). Names are case-insensitive, as Spark's: the normal form
 * keys them in lower case, sorted, so that plans print and compare the same however a user spelled
 * them; it is read-only and keeps its order through Kryo and the JSON plan form.
 */
public final class FormatOptions {
    private FormatOptions() {
    }

    /**
     * The normal form of {@code options}: lower-case names in order, read-only.
     *
     * @throws SluiceException if two names differ only in case, or a name or value is null
     */
    public static Map<String, String> normalize(Map<String, String> options) {
        requireNonNull(options, "options is null");
        TreeMap<String, String> sorted = new TreeMap<>();
        options.forEach((name, value) -> {
            if (name == null || value == null) {
                throw new SluiceException("an option needs a name and a value, got " + name + " = " + value);
            }
            String key = name.toLowerCase(Locale.ROOT);
            if (sorted.put(key, value) != null) {
                throw new SluiceException("option '" + key + "' is given twice");
            }
        });
        return Collections.unmodifiableMap(new LinkedHashMap<>(sorted));
    }

    /**
     * {@code options} (normal form) with {@code more} added, a name in {@code more} replacing the
     * same name in any case (as a later {@code .option(k, v)} replaces an earlier one); normal form.
     */
    public static Map<String, String> with(Map<String, String> options, Map<String, String> more) {
        TreeMap<String, String> merged = new TreeMap<>(normalize(options));
        merged.putAll(normalize(more));
        return Collections.unmodifiableMap(new LinkedHashMap<>(merged));
    }

    /**
     * Refuses the first option of {@code options} (normal form) that is not among {@code known}
     * (names as documented, compared ignoring case), naming it and listing the known ones for
     * {@code format}, as DuckDB does.
     */
    public static void requireKnown(String format, Map<String, String> options, Collection<String> known) {
        for (String name : options.keySet()) {
            if (known.stream().noneMatch(k -> k.equalsIgnoreCase(name))) {
                throw new SluiceException("unknown " + format + " option '" + name + "'; "
                        + (known.isEmpty() ? format + " takes no options" : "known " + format + " options: "
                        + String.join(", ", known)));
            }
        }
    }
}
