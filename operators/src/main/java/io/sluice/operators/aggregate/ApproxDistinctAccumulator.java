package io.sluice.operators.aggregate;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.NestedValues;
import io.sluice.operators.memory.HeapSize;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code approx_count_distinct(x[, relativeSD])}: a HyperLogLog sketch per group, with Spark's
 * precision for the wanted relative standard deviation ({@code p = ceil(2 log2(1.106 / rsd))},
 * {@code 2^p} registers) and the linear-counting estimate where few registers are set. Each value
 * is hashed to 64 bits (by its kind, without boxing); a register keeps the longest run of leading
 * zeros seen. States merge by the register-wise maximum, so the estimate is the same whatever the
 * partitioning. The state column is the registers packed eight to a BIGINT, in an array.
 */
final class ApproxDistinctAccumulator extends Accumulator {
    private final int p;
    private final int m;
    private byte[][] registers = new byte[0][];
    private long sketchBytes;

    ApproxDistinctAccumulator(double relativeSd) {
        if (!(relativeSd > 0) || relativeSd > 0.39) {
            throw new SluiceException("approx_count_distinct(): the relative standard deviation " + relativeSd
                    + " must be above 0 and at most 0.39");
        }
        this.p = Math.max(4, (int) Math.ceil(2 * Math.log(1.106 / relativeSd) / Math.log(2)));
        if (p > 18) {
            throw new SluiceException("approx_count_distinct(): the relative standard deviation " + relativeSd
                    + " is too small (at least 0.0017: 2^18 registers per group)");
        }
        this.m = 1 << p;
    }

    private byte[] group(int g) {
        byte[] r = registers[g];
        if (r == null) {
            r = new byte[m];
            registers[g] = r;
            sketchBytes += HeapSize.COL_OBJECT / 2 + m;
        }
        return r;
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        if (arg.type.kind() == DataType.Kind.NULL) {
            return;
        }
        for (int i = 0; i < rows; i++) {
            if (!arg.isNull(i)) {
                add(group(groups[i]), hash(arg, i));
            }
        }
    }

    private void add(byte[] r, long hash) {
        int index = (int) (hash >>> (64 - p));
        int rank = Long.numberOfLeadingZeros((hash << p) | (1L << (p - 1))) + 1;
        if (rank > r[index]) {
            r[index] = (byte) rank;
        }
    }

    /** A 64-bit hash of the value at {@code row}, by its kind. */
    private static long hash(Col c, int row) {
        long h = switch (c.type.kind()) {
            case FLOAT64 -> Double.doubleToLongBits(c.doubles[row] == 0.0 ? 0.0 : c.doubles[row]);
            case BOOL -> c.bools[row] ? 1 : 0;
            case UTF8 -> {
                String s = c.strings[row];
                long x = 0xcbf29ce484222325L;
                for (int i = 0; i < s.length(); i++) {
                    x = (x ^ s.charAt(i)) * 0x100000001b3L;
                }
                yield x;
            }
            case STRUCT, LIST, MAP -> c.objects[row].hashCode();
            default -> c.isWide() ? c.high(row) * 31 + c.low(row) : c.longs[row];
        };
        return mix(h);
    }

    /** MurmurHash3's 64-bit finalizer: every input bit affects every output bit. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    @Override
    void merge(int[] groups, int rows, Col[] states) {
        Col packed = states[0];
        for (int i = 0; i < rows; i++) {
            if (packed.isNull(i)) {
                continue;
            }
            byte[] r = group(groups[i]);
            List<?> words = (List<?>) packed.objects[i];
            for (int w = 0; w < words.size(); w++) {
                long word = (Long) words.get(w);
                for (int b = 0; b < 8 && w * 8 + b < m; b++) {
                    int rank = (int) (word >>> (8 * b)) & 0xFF;
                    if (rank > r[w * 8 + b]) {
                        r[w * 8 + b] = (byte) rank;
                    }
                }
            }
        }
    }

    @Override
    void ensureCapacity(int groups) {
        if (registers.length < groups) {
            registers = Arrays.copyOf(registers, grow(registers.length, groups));
        }
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(DataType.list(DataType.INT64));
    }

    @Override
    Col[] states(int from, int count) {
        Object[] values = new Object[count];
        for (int i = 0; i < count; i++) {
            byte[] r = registers[from + i];
            if (r == null) {
                continue;
            }
            List<Long> words = new ArrayList<>((m + 7) / 8);
            for (int w = 0; w * 8 < m; w++) {
                long word = 0;
                for (int b = 0; b < 8 && w * 8 + b < m; b++) {
                    word |= (long) (r[w * 8 + b] & 0xFF) << (8 * b);
                }
                words.add(word);
            }
            values[i] = words;
        }
        return new Col[] {NestedValues.of(stateTypes().get(0), values)};
    }

    @Override
    Col result(int from, int count) {
        long[] estimates = new long[count];
        for (int i = 0; i < count; i++) {
            byte[] r = registers[from + i];
            estimates[i] = r == null ? 0 : estimate(r);
        }
        return Col.ofLongs(DataType.INT64, estimates, null);
    }

    private long estimate(byte[] r) {
        double sum = 0;
        int zeros = 0;
        for (byte rank : r) {
            sum += Math.scalb(1.0, -rank);
            zeros += rank == 0 ? 1 : 0;
        }
        double alpha = switch (m) {
            case 16 -> 0.673;
            case 32 -> 0.697;
            case 64 -> 0.709;
            default -> 0.7213 / (1 + 1.079 / m);
        };
        double e = alpha * m * (double) m / sum;
        if (e <= 2.5 * m && zeros > 0) {
            e = m * Math.log((double) m / zeros);
        }
        return Math.round(e);
    }

    @Override
    long heapBytes() {
        return HeapSize.references(registers.length) + sketchBytes;
    }
}
