package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;

/**
 * One leaf of a nested column, read a batch of rows at a time: every value slot of those rows (a
 * repetition level, a definition level and, where the value is defined, the value) into primitive
 * arrays reused across batches. {@link ParquetNestedAssembler} turns the levels of the leaves into
 * offsets and validity. A batch ends on a row boundary (the next repetition level 0), so a list
 * never splits across batches, however its pages and row groups lie.
 */
final class ParquetLeafLevels {
    private final ColumnReader reader;
    private final DataType type;
    private final ParquetColumnType.Decoding decoding;
    private final int maxDefinitionLevel;
    private final long total;
    private final RecentStrings strings = new RecentStrings();
    private long consumed;
    private int count;
    int[] repetition = new int[0];
    int[] definition = new int[0];
    private long[] longs;
    private double[] doubles;
    private boolean[] bools;
    private String[] texts;
    private long[] highs;

    ParquetLeafLevels(ColumnReader reader, ParquetColumnType columnType) {
        this.reader = requireNonNull(reader, "reader is null");
        this.type = columnType.type();
        this.decoding = columnType.decoding();
        this.maxDefinitionLevel = reader.getDescriptor().getMaxDefinitionLevel();
        this.total = reader.getTotalValueCount();
    }

    DataType type() {
        return type;
    }

    /** The slots read by the last {@link #read}. */
    int count() {
        return count;
    }

    /** Reads the slots of the next {@code rows} rows (the caller guarantees that many remain). */
    void read(int rows) {
        ColumnReader r = reader;
        int t = 0;
        int started = 0;
        while (consumed < total) {
            int rep = r.getCurrentRepetitionLevel();
            if (rep == 0) {
                if (started == rows) {
                    break;
                }
                started++;
            }
            if (t == repetition.length) {
                grow(Math.max(1024, t * 2));
            }
            int def = r.getCurrentDefinitionLevel();
            repetition[t] = rep;
            definition[t] = def;
            if (def == maxDefinitionLevel) {
                switch (decoding) {
                    case DOUBLE -> doubles[t] = r.getDouble();
                    case FLOAT -> doubles[t] = r.getFloat();
                    case BOOLEAN -> bools[t] = r.getBoolean();
                    case STRING -> texts[t] = strings.of(r.getBinary());
                    default -> {
                        if (highs != null) {
                            ByteBuffer bytes = r.getBinary().toByteBuffer();
                            PageNumbers.wide(bytes, bytes.position(), bytes.remaining(), longs, highs, t);
                        } else {
                            longs[t] = longValue(r, decoding);
                        }
                    }
                }
            }
            r.consume();
            consumed++;
            t++;
        }
        if (started < rows) {
            throw new IllegalStateException("column " + Arrays.toString(reader.getDescriptor().getPath()) + " ended after "
                    + started + " of " + rows + " rows");
        }
        count = t;
    }

    /** The current value of a long-backed decoding, in the unit of its Sluice type. */
    private static long longValue(ColumnReader r, ParquetColumnType.Decoding decoding) {
        return switch (decoding) {
            case INT32 -> r.getInteger();
            case UINT32 -> r.getInteger() & 0xFFFF_FFFFL;
            case INT64 -> r.getLong();
            case INT64_MILLIS -> r.getLong() * 1000;
            case INT64_NANOS -> Math.floorDiv(r.getLong(), 1000L);
            case INT96 -> PageNumbers.int96Micros(r.getBinary());
            default -> PageNumbers.unscaled(r.getBinary());
        };
    }

    /**
     * The values of the slots {@code slots[0..n)} (all slots when {@code slots} is null), NULL
     * where the value is not defined (a NULL value or an absent ancestor).
     */
    Col values(int[] slots, int n) {
        boolean[] nulls = null;
        for (int i = 0; i < n; i++) {
            if (definition[slots == null ? i : slots[i]] != maxDefinitionLevel) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
            }
        }
        return switch (decoding) {
            case DOUBLE, FLOAT -> Col.ofDoubles(pick(doubles, slots, n), nulls);
            case BOOLEAN -> {
                boolean[] out = new boolean[n];
                for (int i = 0; i < n; i++) {
                    out[i] = bools[slots == null ? i : slots[i]];
                }
                yield Col.ofBools(out, nulls);
            }
            case STRING -> {
                String[] out = new String[n];
                for (int i = 0; i < n; i++) {
                    out[i] = nulls != null && nulls[i] ? null : texts[slots == null ? i : slots[i]];
                }
                yield Col.ofStrings(out, nulls);
            }
            default -> highs != null
                    ? Col.ofInt128(type, pick(highs, slots, n), pick(longs, slots, n), nulls)
                    : Col.ofLongs(type, pick(longs, slots, n), nulls);
        };
    }

    private static long[] pick(long[] values, int[] slots, int n) {
        if (slots == null) {
            return Arrays.copyOf(values, n);
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = values[slots[i]];
        }
        return out;
    }

    private static double[] pick(double[] values, int[] slots, int n) {
        if (slots == null) {
            return Arrays.copyOf(values, n);
        }
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = values[slots[i]];
        }
        return out;
    }

    private void grow(int capacity) {
        repetition = Arrays.copyOf(repetition, capacity);
        definition = Arrays.copyOf(definition, capacity);
        switch (decoding) {
            case DOUBLE, FLOAT -> doubles = doubles == null ? new double[capacity] : Arrays.copyOf(doubles, capacity);
            case BOOLEAN -> bools = bools == null ? new boolean[capacity] : Arrays.copyOf(bools, capacity);
            case STRING -> texts = texts == null ? new String[capacity] : Arrays.copyOf(texts, capacity);
            default -> {
                longs = longs == null ? new long[capacity] : Arrays.copyOf(longs, capacity);
                if (decoding == ParquetColumnType.Decoding.DECIMAL_BYTES && type.isWideDecimal()) {
                    highs = highs == null ? new long[capacity] : Arrays.copyOf(highs, capacity);
                }
            }
        }
    }
}
