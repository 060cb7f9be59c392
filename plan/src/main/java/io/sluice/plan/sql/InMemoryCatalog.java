package io.sluice.plan.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.SluiceException;
import io.sluice.plan.source.TableSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A thread-safe catalog held in memory. Names match case-insensitively, like unquoted SQL names do
 * in most engines, so {@code SELECT * FROM Lineitem} finds a table registered as {@code lineitem}.
 */
public final class InMemoryCatalog implements Catalog {
    private final ConcurrentMap<String, TableSource> tables = new ConcurrentHashMap<>();

    /** Registers a table under {@code source.name()}, replacing one of the same name. */
    public void register(TableSource source) {
        requireNonNull(source, "source is null");
        tables.put(key(source.name()), source);
    }

    /** Removes the named table; returns whether there was one. */
    public boolean drop(String name) {
        return tables.remove(key(requireNonNull(name, "name is null"))) != null;
    }

    /** Registered table names as they were registered, sorted. */
    public List<String> tableNames() {
        List<String> names = new ArrayList<>();
        for (TableSource source : tables.values()) {
            names.add(source.name());
        }
        names.sort(String.CASE_INSENSITIVE_ORDER);
        return names;
    }

    @Override
    public TableSource table(String name) {
        requireNonNull(name, "name is null");
        TableSource source = tables.get(key(name));
        if (source == null) {
            List<String> known = tableNames();
            throw new SluiceException("unknown table '" + name + "';" + NameSuggestions.didYouMean(name, known)
                    + " known tables: "
                    + (known.isEmpty() ? "(none)" : String.join(", ", known)));
        }
        return source;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
