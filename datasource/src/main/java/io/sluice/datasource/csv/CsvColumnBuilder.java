package io.sluice.datasource.csv;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.util.Arrays;

/**
 * Accumulates one column of a CSV batch, parsing each field straight into a primitive array of the
 * column's type. Arrays grow by doubling up to the batch size, so a small file never pays for a
 * large batch size. {@link #build()} hands the values over as a {@link Col} and starts afresh.
 */
final class CsvColumnBuilder {
    private static final int INITIAL_CAPACITY = 1024;
    private static final int MAX_VALUE_IN_MESSAGE = 100;

    private final String name;
    private final DataType type;
    private final DataType.Kind kind;
    private final int maxRows;
    private final CsvValues values;

    private long[] longs;
    /** High words of a decimal of precision 19 to 38 (low words in {@code longs}). */
    private long[] highs;
    private double[] doubles;
    private boolean[] bools;
    private String[] strings;
    private boolean[] nulls;
    private int size;

    CsvColumnBuilder(String name, DataType type, int maxRows, CsvValues values) {
        this.name = requireNonNull(name, "name is null");
        this.type = requireNonNull(type, "type is null");
        this.values = requireNonNull(values, "values is null");
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be positive: " + maxRows);
        }
        if (type.isNested()) {
            throw new SluiceException("CSV column '" + name + "' cannot be of the nested type " + type.sqlName());
        }
        this.kind = type.kind();
        this.maxRows = maxRows;
        reset();
    }

    private void reset() {
        int capacity = Math.min(maxRows, INITIAL_CAPACITY);
        longs = null;
        doubles = null;
        bools = null;
        strings = null;
        nulls = null;
        switch (kind) {
            case FLOAT64 -> doubles = new double[capacity];
            case BOOL, NULL -> bools = new boolean[capacity];
            case UTF8 -> strings = new String[capacity];
            default -> longs = new long[capacity];
        }
        highs = type.isWideDecimal() ? new long[capacity] : null;
        size = 0;
    }

    /**
     * Appends field {@code field} of the tokenizer's current record, or NULL if the record has no
     * such field; false (and nothing appended) when the text is not a value of the column's type.
     */
    boolean append(CsvTokenizer record, int field) {
        if (field >= record.fieldCount() || record.isNull(field)) {
            appendNull();
            return true;
        }
        if (size == capacity()) {
            grow();
        }
        char[] c = record.chars();
        int start = record.start(field);
        int end = record.end(field);
        boolean ok = switch (kind) {
            case INT64, INT32, DATE32, DECIMAL, TIMESTAMP -> parseLongBacked(c, start, end);
            case FLOAT64 -> {
                boolean parsed = values.parseDouble(c, start, end);
                doubles[size] = values.doubleValue;
                yield parsed;
            }
            case BOOL -> {
                boolean parsed = values.parseBool(c, start, end);
                bools[size] = values.longValue != 0;
                yield parsed;
            }
            case UTF8 -> {
                strings[size] = new String(c, start, end - start);
                yield true;
            }
            case NULL, STRUCT, LIST, MAP -> false;
        };
        if (ok) {
            size++;
        }
        return ok;
    }

    void appendNull() {
        if (size == capacity()) {
            grow();
        }
        if (nulls == null) {
            nulls = new boolean[capacity()];
        }
        nulls[size++] = true;
    }

    /** Drops the values appended after the first {@code keep} (a row given up half way). */
    void truncate(int keep) {
        if (nulls != null) {
            Arrays.fill(nulls, keep, size, false);
        }
        size = keep;
    }

    private boolean parseLongBacked(char[] c, int start, int end) {
        boolean parsed = switch (kind) {
            case INT64 -> values.parseLong(c, start, end);
            case INT32 -> values.parseInt(c, start, end);
            case DATE32 -> values.parseDate(c, start, end);
            case TIMESTAMP -> values.parseTimestamp(c, start, end);
            default -> values.parseDecimal(c, start, end, type.precision(), type.scale());
        };
        longs[size] = values.longValue;
        if (highs != null) {
            highs[size] = values.highValue;
        }
        return parsed;
    }

    /** The error for field {@code field} of the current record, which {@link #append} refused: it names file, line, column and value. */
    SluiceException badValue(CsvTokenizer record, int field, String file) {
        String text = record.text(field);
        if (text.length() > MAX_VALUE_IN_MESSAGE) {
            text = text.substring(0, MAX_VALUE_IN_MESSAGE) + "...";
        }
        return new SluiceException(file + ": line " + record.line() + ", column '" + name + "': cannot parse '" + text
                + "' as " + type);
    }

    private int capacity() {
        return switch (kind) {
            case FLOAT64 -> doubles.length;
            case BOOL, NULL -> bools.length;
            case UTF8 -> strings.length;
            default -> longs.length;
        };
    }

    private void grow() {
        int capacity = (int) Math.min(maxRows, 2L * capacity());
        switch (kind) {
            case FLOAT64 -> doubles = Arrays.copyOf(doubles, capacity);
            case BOOL, NULL -> bools = Arrays.copyOf(bools, capacity);
            case UTF8 -> strings = Arrays.copyOf(strings, capacity);
            default -> longs = Arrays.copyOf(longs, capacity);
        }
        if (highs != null) {
            highs = Arrays.copyOf(highs, capacity);
        }
        if (nulls != null) {
            nulls = Arrays.copyOf(nulls, capacity);
        }
    }

    int size() {
        return size;
    }

    /** The values appended since the last build, trimmed to their count. */
    Col build() {
        int n = size;
        boolean[] outNulls = nulls == null ? null : trim(nulls, n);
        Col col = switch (kind) {
            case FLOAT64 -> Col.ofDoubles(doubles.length == n ? doubles : Arrays.copyOf(doubles, n), outNulls);
            case BOOL -> Col.ofBools(trim(bools, n), outNulls);
            case NULL -> Col.allNull(type, n);
            case UTF8 -> Col.ofStrings(strings.length == n ? strings : Arrays.copyOf(strings, n), outNulls);
            default -> highs != null
                    ? Col.ofInt128(type, Arrays.copyOf(highs, n), Arrays.copyOf(longs, n), outNulls)
                    : Col.ofLongs(type, longs.length == n ? longs : Arrays.copyOf(longs, n), outNulls);
        };
        reset();
        return col;
    }

    private static boolean[] trim(boolean[] array, int n) {
        return array.length == n ? array : Arrays.copyOf(array, n);
    }
}
