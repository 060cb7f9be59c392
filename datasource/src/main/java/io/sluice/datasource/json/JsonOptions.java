package io.sluice.datasource.json;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The options of a JSON lines table, named as Spark names them (case-insensitive): {@code mode}
 * ({@code FAILFAST}, the default here, {@code PERMISSIVE} or {@code DROPMALFORMED}) and
 * {@code columnNameOfCorruptRecord} (default {@code _corrupt_record}).
 */
public record JsonOptions(ParseMode mode, String corruptRecordColumn) {
    public static final String MODE = "mode";
    public static final String CORRUPT_RECORD_COLUMN = "columnNameOfCorruptRecord";
    public static final String DEFAULT_CORRUPT_RECORD_COLUMN = "_corrupt_record";
    /** The options this format reads, as documented. */
    public static final List<String> NAMES = List.of(MODE, CORRUPT_RECORD_COLUMN);
    public static final JsonOptions DEFAULT = new JsonOptions(ParseMode.FAILFAST, DEFAULT_CORRUPT_RECORD_COLUMN);

    /** What a line that is not a JSON object, or a value that does not fit its column's type, does. */
    public enum ParseMode {
        /** Fails the query with an error naming the file, the line and (for a value) the column. */
        FAILFAST,
        /** Reads the line's fields that parse (none for a line that is not JSON) and keeps the line in the corrupt record column. */
        PERMISSIVE,
        /** Skips the line. */
        DROPMALFORMED
    }

    public JsonOptions {
        requireNonNull(mode, "mode is null");
        requireNonNull(corruptRecordColumn, "corruptRecordColumn is null");
    }

    /** The JSON options of a table; a mode that is not one of the three is a user error naming it. */
    public static JsonOptions of(Map<String, String> options) {
        requireNonNull(options, "options is null");
        ParseMode mode = DEFAULT.mode();
        String corrupt = DEFAULT.corruptRecordColumn();
        for (Map.Entry<String, String> option : options.entrySet()) {
            if (option.getKey().equalsIgnoreCase(MODE)) {
                mode = parseMode(option.getValue());
            } else if (option.getKey().equalsIgnoreCase(CORRUPT_RECORD_COLUMN)) {
                if (option.getValue().isBlank()) {
                    throw new SluiceException("JSON option " + CORRUPT_RECORD_COLUMN + " is empty");
                }
                corrupt = option.getValue();
            }
        }
        return new JsonOptions(mode, corrupt);
    }

    private static ParseMode parseMode(String value) {
        for (ParseMode mode : ParseMode.values()) {
            if (mode.name().equalsIgnoreCase(value.strip())) {
                return mode;
            }
        }
        throw new SluiceException("unknown JSON " + MODE + " '" + value + "'; expected PERMISSIVE, DROPMALFORMED or FAILFAST");
    }

    @Override
    public String toString() {
        return "mode=" + mode.name().toLowerCase(Locale.ROOT) + ", " + CORRUPT_RECORD_COLUMN + "=" + corruptRecordColumn;
    }
}
