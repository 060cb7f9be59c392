package io.sluice.operators.window;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFunction;
import java.util.Arrays;
import java.util.List;

/**
 * Computes one window function's column over a block of whole partitions ({@link WindowBlock}),
 * in one pass over its rows. Ranking functions read partition and peer boundaries; {@code lag},
 * {@code lead}, {@code first_value}, {@code last_value}, {@code nth_value}, {@code min} and {@code max} pick a row
 * and gather its value (NULL where there is none, or {@code lag}/{@code lead}'s default);
 * sums and counts run over frames ({@link FrameAggregates}).
 */
final class WindowFunctions {
    private WindowFunctions() {
    }

    /**
     * {@code value}: the first argument evaluated over the block (null when there is none);
     * {@code fallback}: lag/lead's default, already of the result type (null when there is none);
     * {@code orderKey}: the first ORDER BY key's column (null without ORDER BY).
     */
    static Col compute(WindowCall call, DataType resultType, WindowBlock block, Col value, Col fallback, Col orderKey) {
        int rows = block.rows;
        return switch (call.function()) {
            case ROW_NUMBER -> {
                long[] out = new long[rows];
                for (int i = 0; i < rows; i++) {
                    out[i] = i - block.partitionStart[i] + 1;
                }
                yield Col.ofLongs(DataType.INT64, out, null);
            }
            case RANK -> {
                long[] out = new long[rows];
                for (int i = 0; i < rows; i++) {
                    out[i] = block.peerStart[i] - block.partitionStart[i] + 1;
                }
                yield Col.ofLongs(DataType.INT64, out, null);
            }
            case DENSE_RANK -> {
                long[] out = new long[rows];
                long rank = 0;
                for (int i = 0; i < rows; i++) {
                    if (i == block.partitionStart[i]) {
                        rank = 0;
                    }
                    if (i == block.peerStart[i]) {
                        rank++;
                    }
                    out[i] = rank;
                }
                yield Col.ofLongs(DataType.INT64, out, null);
            }
            case PERCENT_RANK -> {
                double[] out = new double[rows];
                for (int i = 0; i < rows; i++) {
                    int size = block.partitionEnd[i] - block.partitionStart[i];
                    out[i] = size > 1 ? (double) (block.peerStart[i] - block.partitionStart[i]) / (size - 1) : 0;
                }
                yield Col.ofDoubles(out, null);
            }
            case CUME_DIST -> {
                double[] out = new double[rows];
                for (int i = 0; i < rows; i++) {
                    int size = block.partitionEnd[i] - block.partitionStart[i];
                    out[i] = (double) (block.peerEnd[i] - block.partitionStart[i]) / size;
                }
                yield Col.ofDoubles(out, null);
            }
            case NTILE -> ntile(block, call.constantArgument());
            case LAG, LEAD -> offset(block, value, fallback, call.ignoreNulls(),
                    call.function() == WindowFunction.LAG ? -call.constantArgument() : call.constantArgument());
            case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> {
                WindowFrames frames = frames(call, block, orderKey);
                Candidates rowsWithValues = new Candidates(value, call.ignoreNulls());
                long n = call.function() == WindowFunction.NTH_VALUE ? call.constantArgument() : 1;
                boolean last = call.function() == WindowFunction.LAST_VALUE;
                int[] pick = new int[rows];
                for (int i = 0; i < rows; i++) {
                    int from = rowsWithValues.before[frames.start[i]];
                    int to = rowsWithValues.before[frames.end[i]];
                    long at = last ? to - 1L : from + n - 1;
                    pick[i] = at >= from && at < to ? rowsWithValues.rows[(int) at] : -1;
                }
                yield value.gatherOrNull(pick, rows);
            }
            case SUM, COUNT, COUNT_STAR, MIN, MAX, AVG -> FrameAggregates.compute(call.function().aggregate(), value,
                    frames(call, block, orderKey), rows, resultType, call.toString());
        };
    }

    private static WindowFrames frames(WindowCall call, WindowBlock block, Col orderKey) {
        List<SortKey> orderBy = call.orderBy();
        return WindowFrames.of(call.frame(), block, orderKey, orderBy.isEmpty() ? null : orderBy.get(0));
    }

    /**
     * Buckets 1..n as equal as possible, the first {@code size % n} one row larger (as DuckDB and
     * PostgreSQL); with fewer rows than buckets, one row per bucket.
     */
    private static Col ntile(WindowBlock block, long buckets) {
        int rows = block.rows;
        long[] out = new long[rows];
        for (int i = 0; i < rows; i++) {
            long size = block.partitionEnd[i] - block.partitionStart[i];
            long n = Math.min(buckets, size);
            long small = size / n;
            long large = size - n * small; // buckets holding small + 1 rows
            long inLarge = large * (small + 1);
            long at = i - block.partitionStart[i];
            out[i] = at < inLarge ? 1 + at / (small + 1) : 1 + large + (at - inLarge) / small;
        }
        return Col.ofLongs(DataType.INT64, out, null);
    }

    /**
     * The rows a value can be taken from, in order: every row, or with IGNORE NULLS those whose value
     * is not NULL. {@code before[i]}: how many of them precede row i ({@code rows + 1} entries).
     */
    private static final class Candidates {
        final int[] rows;
        final int[] before;

        Candidates(Col value, boolean ignoreNulls) {
            int n = value.length;
            boolean[] nulls = !ignoreNulls ? null : value.type.kind() == DataType.Kind.NULL ? allTrue(n) : value.nulls;
            rows = new int[n];
            before = new int[n + 1];
            int count = 0;
            for (int i = 0; i < n; i++) {
                before[i] = count;
                if (nulls == null || !nulls[i]) {
                    rows[count++] = i;
                }
            }
            before[n] = count;
        }

        private static boolean[] allTrue(int n) {
            boolean[] out = new boolean[n];
            Arrays.fill(out, true);
            return out;
        }
    }

    /**
     * The value {@code delta} rows away within the partition (counting only non-NULL values with
     * IGNORE NULLS), else the default (or NULL): the value and default columns are gathered as one,
     * the default's rows after the value's.
     */
    private static Col offset(WindowBlock block, Col value, Col fallback, boolean ignoreNulls, long delta) {
        int rows = block.rows;
        Candidates candidates = new Candidates(value, ignoreNulls);
        int[] pick = new int[rows];
        for (int i = 0; i < rows; i++) {
            int found;
            if (delta == 0) {
                found = i;
            } else {
                // the |delta|-th candidate before row i, or after it, within the partition
                long at = delta < 0 ? candidates.before[i] + delta : candidates.before[i + 1] + delta - 1;
                boolean inside = at >= candidates.before[block.partitionStart[i]]
                        && at < candidates.before[block.partitionEnd[i]];
                found = inside ? candidates.rows[(int) at] : -1;
            }
            pick[i] = found >= 0 ? found : fallback == null ? -1 : rows + i;
        }
        if (fallback == null) {
            return value.gatherOrNull(pick, rows);
        }
        if (value.type.kind() == DataType.Kind.NULL) {
            value = Col.allNull(fallback.type, rows); // lag(NULL, 1, d) has d's type
        }
        return Col.concat(value.type, List.of(value, fallback)).gatherOrNull(pick, rows);
    }
}
