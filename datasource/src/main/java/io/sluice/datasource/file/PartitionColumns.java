package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Hive partition columns of a table: their types, inferred from the directory values as Spark
 * infers them (integers as INT, or BIGINT when one does not fit; {@code yyyy-MM-dd} dates as DATE;
 * anything else, or a mix, as STRING; a column of only NULLs as STRING), and each file's values as
 * engine values, checked against those types. A file's value is carried in its scan partitions as
 * exact statistics (min = max = the value; NULL as no min and a NULL count), so filters prune
 * partitions with the same code that prunes row groups, and the scan reads the value back from them.
 */
public final class PartitionColumns {
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,18}");
    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");

    private PartitionColumns() {
    }

    /** The partition columns a listing's directories give, typed from all their values (each distinct one looked at once). */
    public static List<Field> infer(FileListing listing) {
        List<Field> fields = new ArrayList<>(listing.partitionKeys().size());
        for (int k = 0; k < listing.partitionKeys().size(); k++) {
            boolean integers = true;
            boolean ints = true;
            boolean dates = true;
            boolean any = false;
            Set<String> distinct = new HashSet<>();
            for (SourceFile f : listing.files()) {
                String v = f.partitionValues().get(k);
                if (v == null || !distinct.add(v)) {
                    continue;
                }
                any = true;
                boolean integer = INTEGER.matcher(v).matches();
                integers &= integer;
                ints &= integer && fitsInt(v);
                dates &= isDate(v);
            }
            DataType type = !any ? DataType.UTF8 : ints ? DataType.INT32 : integers ? DataType.INT64
                    : dates ? DataType.DATE32 : DataType.UTF8;
            fields.add(new Field(listing.partitionKeys().get(k), type));
        }
        return fields;
    }

    /** {@code field} if its type can be a partition column's (INT, BIGINT, DATE, STRING); else an error naming it. */
    public static Field checkType(Field field, String location) {
        DataType.Kind kind = field.type().kind();
        if (kind != DataType.Kind.INT32 && kind != DataType.Kind.INT64 && kind != DataType.Kind.DATE32
                && kind != DataType.Kind.UTF8) {
            throw new SluiceException("partition column '" + field.name() + "' of " + location + " is declared "
                    + field.type().sqlName() + "; partition columns are INT, BIGINT, DATE or STRING");
        }
        return field;
    }

    /** The fields of {@code schema} named in {@code partitionColumns}, in that order. */
    public static List<Field> fields(Schema schema, List<String> partitionColumns) {
        return partitionColumns.stream().map(schema::field).toList();
    }

    /**
     * A file's partition values as statistics of {@code fields} (the table's partition columns),
     * each parsed as its column's type; a value that does not parse is an error naming the file.
     */
    public static List<ColumnStats> stats(SourceFile file, List<Field> fields) {
        List<ColumnStats> out = new ArrayList<>(fields.size());
        for (int k = 0; k < fields.size(); k++) {
            Field field = fields.get(k);
            Object value = value(file.partitionValues().get(k), field, file.path());
            out.add(value == null ? new ColumnStats(field.name(), null, null, 1) : new ColumnStats(field.name(), value, value, 0));
        }
        return out;
    }

    /** The value of partition column {@code column} in a scan partition, as an engine value (null for NULL). */
    public static Object value(ScanPartition partition, String column) {
        ColumnStats stats = requireNonNull(partition.stats(column), () -> partition + " has no value of partition column " + column);
        return stats.min();
    }

    private static Object value(String raw, Field field, String path) {
        if (raw == null) {
            return null;
        }
        DataType type = field.type();
        try {
            return switch (type.kind()) {
                case UTF8 -> raw;
                case INT32 -> (long) Integer.parseInt(raw);
                case INT64 -> Long.parseLong(raw);
                case DATE32 -> LocalDate.parse(raw).toEpochDay();
                default -> throw new SluiceException("partition column '" + field.name() + "' has type " + type.sqlName()
                        + "; partition columns can be INT, BIGINT, DATE or STRING");
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new SluiceException("partition directory " + field.name() + "=" + raw + " of " + path + ": '" + raw
                    + "' is not a " + type.sqlName() + " (the type of partition column '" + field.name() + "')", e);
        }
    }

    private static boolean fitsInt(String v) {
        long l = Long.parseLong(v);
        return l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE;
    }

    private static boolean isDate(String v) {
        if (!DATE.matcher(v).matches()) {
            return false;
        }
        try {
            LocalDate.parse(v);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** Whether {@code name} is one of {@code columns}, ignoring case. */
    public static boolean contains(List<String> columns, String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return columns.stream().anyMatch(c -> c.toLowerCase(Locale.ROOT).equals(lower));
    }
}
