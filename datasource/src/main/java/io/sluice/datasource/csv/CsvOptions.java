package io.sluice.datasource.csv;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.logical.source.FormatOptions;
import java.time.format.DateTimeFormatter;
import java.time.format.ResolverStyle;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A CSV table's options, parsed and checked once per use from the table's option map (Spark's
 * names, case-insensitive). Defaults keep Sluice's dialect: a header line, comma, double quotes
 * doubled inside quotes, an empty unquoted field is NULL, types inferred, and a row that does not
 * parse fails the query ({@code FAILFAST}, as DuckDB; Spark's default is {@code PERMISSIVE}).
 *
 * @param nullValue text that reads as NULL when unquoted, besides the empty field; null for none
 * @param dateFormat a Spark/{@code java.time} pattern for DATE values; null for yyyy-MM-dd
 * @param timestampFormat the same for TIMESTAMP values; null for ISO-like text
 * @param enforceSchema true: a header line is skipped unread and the table's names stand (Spark's
 *     meaning; the default for a declared schema); false: each file's header must spell the
 *     table's names (the default for an inferred schema, so files of one table cannot disagree)
 */
public record CsvOptions(boolean header, char delimiter, char quote, char escape, String nullValue, String dateFormat,
        String timestampFormat, boolean inferSchema, boolean enforceSchema, Mode mode) {
    /** What to do with a row whose field count is wrong or whose value does not parse as its column's type. */
    public enum Mode {
        /** Fail the query, naming file, line, column and value. */
        FAILFAST,
        /** Keep the row: a value that does not parse is NULL, missing fields are NULL, extra ones ignored. */
        PERMISSIVE,
        /** Skip the row. */
        DROPMALFORMED
    }

    /** The option names CSV knows, as documented. */
    public static final List<String> NAMES = List.of("header", "delimiter", "sep", "quote", "escape", "nullValue",
            "dateFormat", "timestampFormat", "inferSchema", "enforceSchema", "mode", "encoding", "charset");

    public static final CsvOptions DEFAULTS = new CsvOptions(true, ',', '"', '"', null, null, null, true, false,
            Mode.FAILFAST);

    public CsvOptions {
        requireNonNull(mode, "mode is null");
        if (delimiter == quote || delimiter == '\n' || delimiter == '\r' || quote == '\n' || quote == '\r') {
            throw new SluiceException("CSV options: the delimiter and the quote must be different characters and not line"
                    + " breaks");
        }
        if (dateFormat != null) {
            formatter("dateFormat", dateFormat);
        }
        if (timestampFormat != null) {
            formatter("timestampFormat", timestampFormat);
        }
    }

    /**
     * The options {@code options} (normal form) spell.
     *
     * @throws SluiceException naming an unknown option (and the known ones) or a value that is not usable
     */
    public static CsvOptions of(Map<String, String> given) {
        if (given.isEmpty()) {
            return DEFAULTS;
        }
        Map<String, String> options = FormatOptions.normalize(given);
        FormatOptions.requireKnown("CSV", options, NAMES);
        if (options.containsKey("delimiter") && options.containsKey("sep")) {
            throw new SluiceException("CSV options: give either 'delimiter' or 'sep', not both");
        }
        for (String name : List.of("encoding", "charset")) {
            String charset = options.get(name);
            if (charset != null && !charset.replace("-", "").equalsIgnoreCase("utf8")) {
                throw new SluiceException("CSV option " + name + " '" + charset + "' is not supported: files are read and"
                        + " written as UTF-8 only");
            }
        }
        String delimiter = options.getOrDefault("delimiter", options.get("sep"));
        char quote = character(options, "quote", DEFAULTS.quote);
        return new CsvOptions(bool(options, "header", DEFAULTS.header),
                delimiter == null ? DEFAULTS.delimiter : character("delimiter", delimiter),
                quote, character(options, "escape", quote), options.get("nullvalue"), options.get("dateformat"),
                options.get("timestampformat"), bool(options, "inferschema", DEFAULTS.inferSchema),
                bool(options, "enforceschema", DEFAULTS.enforceSchema), mode(options));
    }

    /** A {@code java.time} formatter for a Spark pattern: {@code y} is the proleptic year, dates are checked strictly. */
    public static DateTimeFormatter formatter(String option, String pattern) {
        try {
            return DateTimeFormatter.ofPattern(prolepticYears(pattern), Locale.ROOT).withResolverStyle(ResolverStyle.STRICT);
        } catch (IllegalArgumentException e) {
            throw new SluiceException("CSV option " + option + ": '" + pattern + "' is not a date/time pattern ("
                    + e.getMessage() + ")");
        }
    }

    /** {@code yyyy} to {@code uuuu} outside quoted literals: a strict resolver needs an era for {@code y}. */
    private static String prolepticYears(String pattern) {
        StringBuilder out = new StringBuilder(pattern.length());
        boolean literal = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                literal = !literal;
            }
            out.append(!literal && c == 'y' ? 'u' : c);
        }
        return out.toString();
    }

    private static boolean bool(Map<String, String> options, String name, boolean defaultValue) {
        String value = options.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new SluiceException("CSV option " + name + " must be true or false, not '" + value + "'");
    }

    private static char character(Map<String, String> options, String name, char defaultValue) {
        String value = options.get(name);
        return value == null ? defaultValue : character(name, value);
    }

    /** One character; {@code \t} and the other Java escapes a user types for invisible ones count as one. */
    private static char character(String name, String value) {
        String unescaped = switch (value) {
            case "\\t" -> "\t";
            case "\\u0001" -> "\u0001";
            case "\\\\" -> "\\";
            default -> value;
        };
        if (unescaped.length() != 1) {
            throw new SluiceException("CSV option " + name + " must be one character, not '" + value + "'");
        }
        return unescaped.charAt(0);
    }

    private static Mode mode(Map<String, String> options) {
        String value = options.get("mode");
        if (value == null) {
            return DEFAULTS.mode;
        }
        for (Mode m : Mode.values()) {
            if (m.name().equalsIgnoreCase(value)) {
                return m;
            }
        }
        throw new SluiceException("CSV option mode must be PERMISSIVE, DROPMALFORMED or FAILFAST, not '" + value + "'");
    }
}
