package io.sluice.operators.window;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.Int128;
import io.sluice.kernels.Kernels;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.operators.KeyOrder;
import java.util.Arrays;

/**
 * sum, count, avg, min and max over each row's frame, in one pass: frames only move forward
 * ({@link WindowFrames}), so each row enters and leaves the running state once.
 *
 * <ul>
 *   <li>count keeps a running count of the NULLs in the frame; sum and avg a running sum and count: rows leaving the frame are subtracted before
 *       rows entering are added, so every intermediate sum is over part of the new frame. Integer
 *       and decimal sums are exact, in 128 bits (a frame's sum past a long for integers, or past
 *       its type's precision for decimals, is an error naming the expression). Double sums over a sliding start subtract, so they may
 *       differ from a fresh sum in the last bits (frames from the partition's start never
 *       subtract); infinities and NaNs are counted apart, so one leaving the frame leaves no trace.
 *   <li>min and max keep a monotonic deque of candidate rows (values increasing for min): O(1)
 *       amortized per row whatever the frame size; the result is gathered from the winning row.
 * </ul>
 * NULL values are skipped; a frame with no value gives NULL (count gives 0).
 */
final class FrameAggregates {
    private FrameAggregates() {
    }

    static Col compute(AggregateFunction function, Col arg, WindowFrames frames, int rows, DataType resultType,
            String expression) {
        return switch (function) {
            case COUNT_STAR -> countStar(frames, rows);
            case COUNT -> count(arg, frames, rows);
            case SUM, AVG -> arg.type.kind() == Kind.FLOAT64 ? sumDoubles(function, arg, frames, rows)
                    : sumLongs(function, arg, frames, rows, resultType, expression);
            case MIN, MAX -> minMax(function == AggregateFunction.MIN, arg, frames, rows);
            default -> throw new io.sluice.common.SluiceException("unsupported SQL: " + function.name().toLowerCase(
                    java.util.Locale.ROOT) + " as a window function (" + expression + ")");
        };
    }

    private static Col countStar(WindowFrames frames, int rows) {
        long[] out = new long[rows];
        for (int i = 0; i < rows; i++) {
            out[i] = frames.end[i] - frames.start[i];
        }
        return Col.ofLongs(DataType.INT64, out, null);
    }

    /** Non-NULL values per frame, for an argument of any type: a running count of the NULLs. */
    private static Col count(Col arg, WindowFrames frames, int rows) {
        boolean allNull = arg.type.kind() == Kind.NULL;
        boolean[] nulls = arg.nulls;
        long[] out = new long[rows];
        long nullsInFrame = 0;
        int lo = 0;
        int hi = 0;
        for (int i = 0; i < rows; i++) {
            int s = frames.start[i];
            int e = frames.end[i];
            if (s >= hi) {
                nullsInFrame = 0;
                lo = s;
                hi = s;
            }
            for (; lo < s; lo++) {
                nullsInFrame -= nulls != null && nulls[lo] ? 1 : 0;
            }
            for (; hi < e; hi++) {
                nullsInFrame += nulls != null && nulls[hi] ? 1 : 0;
            }
            out[i] = allNull ? 0 : e - s - nullsInFrame;
        }
        return Col.ofLongs(DataType.INT64, out, null);
    }

    /**
     * Running sums of integers and decimals in 128 bits (high words in {@code highs}, low in
     * {@code lows}; a value leaving the frame is added negated), so no intermediate sum overflows:
     * only a frame's sum past its type (a long for integers, the precision for decimals) is an error.
     */
    private static Col sumLongs(AggregateFunction function, Col arg, WindowFrames frames, int rows, DataType resultType,
            String expression) {
        boolean isNull = arg.type.kind() == Kind.NULL;
        DataType sumType = function == AggregateFunction.SUM ? resultType : AggregateFunction.SUM.resultType(arg.type);
        boolean[] nulls = arg.nulls;
        long[] highs = new long[rows];
        long[] lows = new long[rows];
        long[] counts = new long[rows];
        long sumHigh = 0;
        long sumLow = 0;
        long count = 0;
        int lo = 0;
        int hi = 0;
        try {
            for (int i = 0; i < rows; i++) {
                int s = frames.start[i];
                int e = frames.end[i];
                if (s >= hi) {
                    sumHigh = 0;
                    sumLow = 0;
                    count = 0;
                    lo = s;
                    hi = s;
                }
                for (; lo < s; lo++) {
                    if (!isNull && (nulls == null || !nulls[lo])) {
                        long vl = -arg.low(lo);
                        long vh = ~arg.high(lo) + (arg.low(lo) == 0 ? 1 : 0);
                        long low = sumLow + vl;
                        sumHigh = Int128.addHigh(sumHigh, sumLow, vh, low);
                        sumLow = low;
                        count--;
                    }
                }
                for (; hi < e; hi++) {
                    if (!isNull && (nulls == null || !nulls[hi])) {
                        long low = sumLow + arg.low(hi);
                        sumHigh = Int128.addHigh(sumHigh, sumLow, arg.high(hi), low);
                        sumLow = low;
                        count++;
                    }
                }
                highs[i] = sumHigh;
                lows[i] = sumLow;
                counts[i] = count;
            }
        } catch (ArithmeticException ex) {
            throw overflow(expression, sumType);
        }
        boolean[] empty = emptyFrames(counts, rows);
        if (function == AggregateFunction.SUM) {
            int precision = sumType.kind() == Kind.DECIMAL ? sumType.precision() : Integer.MAX_VALUE;
            for (int i = 0; i < rows; i++) {
                boolean fits = precision == Integer.MAX_VALUE ? Int128.fitsLong(highs[i], lows[i])
                        : Int128.fitsPrecision(highs[i], lows[i], precision);
                if ((empty == null || !empty[i]) && !fits) {
                    throw overflow(expression, sumType);
                }
            }
            return sumType.isWideDecimal() ? Col.ofInt128(sumType, highs, lows, empty) : Col.ofLongs(sumType, lows, empty);
        }
        double divisor = sumType.kind() == Kind.DECIMAL ? Math.pow(10, sumType.scale()) : 1;
        double[] averages = new double[rows];
        for (int i = 0; i < rows; i++) {
            averages[i] = counts[i] == 0 ? 0 : Int128.toDouble(highs[i], lows[i]) / divisor / counts[i];
        }
        return Col.ofDoubles(averages, empty);
    }

    private static SluiceException overflow(String expression, DataType type) {
        return new SluiceException("numeric overflow: " + expression + " does not fit " + type);
    }

    /**
     * Double sums keep only finite values in the running sum and count infinities and NaNs apart, so
     * a NaN or infinity that leaves the frame leaves no trace (subtracting it would).
     */
    private static Col sumDoubles(AggregateFunction function, Col arg, WindowFrames frames, int rows) {
        double[] values = Kernels.toDoubles(arg);
        boolean[] nulls = arg.nulls;
        double[] sums = new double[rows];
        long[] counts = new long[rows];
        double sum = 0;
        long count = 0;
        long nans = 0;
        long positiveInfinities = 0;
        long negativeInfinities = 0;
        int lo = 0;
        int hi = 0;
        for (int i = 0; i < rows; i++) {
            int s = frames.start[i];
            int e = frames.end[i];
            if (s >= hi) {
                sum = 0;
                count = 0;
                nans = 0;
                positiveInfinities = 0;
                negativeInfinities = 0;
                lo = s;
                hi = s;
            }
            for (; lo < s; lo++) {
                if (nulls == null || !nulls[lo]) {
                    double v = values[lo];
                    if (Double.isFinite(v)) {
                        sum -= v;
                    } else {
                        nans -= Double.isNaN(v) ? 1 : 0;
                        positiveInfinities -= v == Double.POSITIVE_INFINITY ? 1 : 0;
                        negativeInfinities -= v == Double.NEGATIVE_INFINITY ? 1 : 0;
                    }
                    count--;
                }
            }
            if (count == 0) {
                sum = 0; // no drift carried into a frame that starts over
            }
            for (; hi < e; hi++) {
                if (nulls == null || !nulls[hi]) {
                    double v = values[hi];
                    if (Double.isFinite(v)) {
                        sum += v;
                    } else {
                        nans += Double.isNaN(v) ? 1 : 0;
                        positiveInfinities += v == Double.POSITIVE_INFINITY ? 1 : 0;
                        negativeInfinities += v == Double.NEGATIVE_INFINITY ? 1 : 0;
                    }
                    count++;
                }
            }
            boolean nan = nans > 0 || (positiveInfinities > 0 && negativeInfinities > 0);
            sums[i] = nan ? Double.NaN : positiveInfinities > 0 ? Double.POSITIVE_INFINITY
                    : negativeInfinities > 0 ? Double.NEGATIVE_INFINITY : sum;
            counts[i] = count;
        }
        boolean[] empty = emptyFrames(counts, rows);
        if (function == AggregateFunction.AVG) {
            for (int i = 0; i < rows; i++) {
                sums[i] = counts[i] == 0 ? 0 : sums[i] / counts[i];
            }
        }
        return Col.ofDoubles(sums, empty);
    }

    private static boolean[] emptyFrames(long[] counts, int rows) {
        boolean[] empty = null;
        for (int i = 0; i < rows; i++) {
            if (counts[i] == 0) {
                if (empty == null) {
                    empty = new boolean[rows];
                }
                empty[i] = true;
            }
        }
        return empty;
    }

    /**
     * A deque of row indexes whose values are strictly increasing (min) or decreasing (max) from
     * head to tail; the head is the frame's answer. Ties keep the earlier row.
     */
    private static Col minMax(boolean min, Col arg, WindowFrames frames, int rows) {
        int[] winner = new int[rows];
        if (arg.type.kind() == Kind.NULL) {
            Arrays.fill(winner, -1);
            return arg.gatherOrNull(winner, rows);
        }
        boolean[] nulls = arg.nulls;
        long[] longs = arg.type.isLongBacked() ? arg.longs : null; // compared without the type switch
        int[] deque = new int[Math.max(1, arg.length)];
        int head = 0;
        int tail = 0;
        int hi = 0;
        for (int i = 0; i < rows; i++) {
            int s = frames.start[i];
            int e = frames.end[i];
            if (s >= hi) {
                head = 0;
                tail = 0;
                hi = s;
            }
            for (; hi < e; hi++) {
                if (nulls != null && nulls[hi]) {
                    continue;
                }
                while (tail > head && worse(min, arg, longs, deque[tail - 1], hi)) {
                    tail--;
                }
                deque[tail++] = hi;
            }
            while (tail > head && deque[head] < s) {
                head++;
            }
            winner[i] = tail > head ? deque[head] : -1;
        }
        return arg.gatherOrNull(winner, rows);
    }

    /** Whether candidate row {@code kept} can never win again once row {@code incoming} is in the frame. */
    private static boolean worse(boolean min, Col arg, long[] longs, int kept, int incoming) {
        int cmp = longs != null ? Long.compare(longs[kept], longs[incoming]) : KeyOrder.compareValues(arg, kept, arg, incoming);
        return min ? cmp > 0 : cmp < 0;
    }
}
