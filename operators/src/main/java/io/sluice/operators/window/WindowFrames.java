package io.sluice.operators.window;

import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowFrame.Bound;
import io.sluice.logical.expr.WindowFrame.BoundKind;
import io.sluice.logical.expr.WindowFrame.Units;
import io.sluice.logical.expr.WindowFrame;

/**
 * Each row's frame as {@code [start[i], end[i])} within its partition; an empty frame has
 * {@code end == start}. Over a block sorted by partition then ORDER BY keys, both arrays are
 * non-decreasing (frames only move forward), which lets the aggregates run over them in one pass.
 *
 * <p>{@code ROWS} bounds count rows; {@code RANGE CURRENT ROW} is the row's peer group;
 * {@code RANGE n PRECEDING/FOLLOWING} compares the one ORDER BY key's value (scaled for decimals),
 * found by two pointers moving forward over the partition. Rows with a NULL key see only their
 * NULL peers for an offset bound, as in PostgreSQL and DuckDB. Key values compare as doubles:
 * exact for integers, dates and decimals below 2^53.
 */
final class WindowFrames {
    final int[] start;
    final int[] end;

    private WindowFrames(int rows) {
        start = new int[rows];
        end = new int[rows];
    }

    static WindowFrames of(WindowFrame frame, WindowBlock block, Col orderKey, SortKey key) {
        WindowFrames out = new WindowFrames(block.rows);
        if (frame.units() == Units.RANGE && frame.rangeOffsets()) {
            out.rangeOffsets(frame, block, orderKey, key);
        } else {
            for (int i = 0; i < block.rows; i++) {
                out.start[i] = out.bound(frame.units(), frame.start(), block, i, true);
                out.end[i] = Math.max(out.start[i], out.bound(frame.units(), frame.end(), block, i, false));
            }
        }
        return out;
    }

    /** A ROWS bound, or a RANGE bound without an offset; as a start index or an exclusive end. */
    private int bound(Units units, Bound b, WindowBlock block, int i, boolean isStart) {
        int lo = block.partitionStart[i];
        int hi = block.partitionEnd[i];
        return switch (b.kind()) {
            case UNBOUNDED_PRECEDING -> lo;
            case UNBOUNDED_FOLLOWING -> hi;
            case CURRENT_ROW -> units == Units.RANGE ? (isStart ? block.peerStart[i] : block.peerEnd[i])
                    : (isStart ? i : i + 1);
            case PRECEDING -> clamp((long) i - b.offset() + (isStart ? 0 : 1), lo, hi);
            case FOLLOWING -> clamp((long) i + b.offset() + (isStart ? 0 : 1), lo, hi);
        };
    }

    private static int clamp(long at, int lo, int hi) {
        return (int) Math.max(lo, Math.min(hi, at));
    }

    /** RANGE with an offset bound, partition by partition. */
    private void rangeOffsets(WindowFrame frame, WindowBlock block, Col orderKey, SortKey key) {
        double scale = orderKey.type.kind() == DataType.Kind.DECIMAL ? TypeRules.pow10(orderKey.type.scale()) : 1;
        for (int p = 0; p < block.rows; p = block.partitionEnd[p]) {
            int pEnd = block.partitionEnd[p];
            // the rows of non-NULL key form one run, before or after the NULLs
            int nonNullStart = p;
            int nonNullEnd = pEnd;
            if (key.nullsFirst()) {
                while (nonNullStart < pEnd && orderKey.isNull(nonNullStart)) {
                    nonNullStart++;
                }
            } else {
                while (nonNullEnd > p && orderKey.isNull(nonNullEnd - 1)) {
                    nonNullEnd--;
                }
            }
            int s = nonNullStart;
            int e = nonNullStart;
            for (int i = p; i < pEnd; i++) {
                if (orderKey.isNull(i)) {
                    start[i] = offsetOrWhole(frame.start(), block, i, true);
                    end[i] = Math.max(start[i], offsetOrWhole(frame.end(), block, i, false));
                    continue;
                }
                if (frame.start().hasOffset()) {
                    double target = target(orderKey, i, frame.start(), key.ascending(), scale);
                    while (s < nonNullEnd && before(orderKey, s, target, key.ascending())) {
                        s++;
                    }
                    start[i] = s;
                } else {
                    start[i] = bound(Units.RANGE, frame.start(), block, i, true);
                }
                if (frame.end().hasOffset()) {
                    double target = target(orderKey, i, frame.end(), key.ascending(), scale);
                    e = Math.max(e, s);
                    while (e < nonNullEnd && !after(orderKey, e, target, key.ascending())) {
                        e++;
                    }
                    end[i] = Math.max(start[i], e);
                } else {
                    end[i] = Math.max(start[i], bound(Units.RANGE, frame.end(), block, i, false));
                }
            }
        }
    }

    /** For a NULL-key row: an offset bound is its peer group's edge; other bounds as usual. */
    private int offsetOrWhole(Bound b, WindowBlock block, int i, boolean isStart) {
        if (b.hasOffset()) {
            return isStart ? block.peerStart[i] : block.peerEnd[i];
        }
        return bound(Units.RANGE, b, block, i, isStart);
    }

    /** The key value a bound reaches from row i: its value minus (PRECEDING) or plus the offset, in sort direction. */
    private static double target(Col key, int i, Bound b, boolean ascending, double scale) {
        double value = value(key, i);
        double offset = b.offset() * scale;
        boolean towardsStart = b.kind() == BoundKind.PRECEDING;
        return (towardsStart == ascending) ? value - offset : value + offset;
    }

    /** Whether row j's key sorts strictly before {@code target}. */
    private static boolean before(Col key, int j, double target, boolean ascending) {
        double v = value(key, j);
        return ascending ? v < target : v > target;
    }

    /** Whether row j's key sorts strictly after {@code target}. */
    private static boolean after(Col key, int j, double target, boolean ascending) {
        double v = value(key, j);
        return ascending ? v > target : v < target;
    }

    private static double value(Col key, int i) {
        if (key.isWide()) {
            return io.sluice.kernels.Int128.toDouble(key.highs[i], key.lows[i]);
        }
        return key.type.kind() == DataType.Kind.FLOAT64 ? key.doubles[i] : key.longs[i];
    }
}
