package io.sluice.operators.aggregate;

import java.util.Arrays;
import java.util.List;

/**
 * A mergeable quantile sketch of doubles (a KLL-style compactor stack): level i holds values of
 * weight 2^i; a level that reaches {@code 2k} values is sorted and every other value moves up a
 * level at twice the weight. Up to {@code 2k} values it is exact; beyond, a quantile's rank is off
 * by about {@code n / k}, so k is Spark's {@code accuracy} (relative error {@code 1 / accuracy}).
 */
final class QuantileSketch {
    private final int k;
    private double[][] levels = new double[1][];
    private int[] sizes = new int[1];
    private boolean oddOffset;

    QuantileSketch(int k) {
        this.k = Math.max(4, k);
    }

    void add(double v) {
        insert(0, v);
    }

    private void insert(int level, double v) {
        if (level >= levels.length) {
            levels = Arrays.copyOf(levels, level + 1);
            sizes = Arrays.copyOf(sizes, level + 1);
        }
        double[] values = levels[level];
        if (values == null || sizes[level] == values.length) {
            levels[level] = values = Arrays.copyOf(values == null ? new double[0] : values,
                    Math.min(2 * k, Math.max(8, sizes[level] * 2)));
        }
        values[sizes[level]++] = v;
        if (sizes[level] >= 2 * k) {
            compact(level);
        }
    }

    private void compact(int level) {
        double[] values = levels[level];
        int n = sizes[level];
        Arrays.sort(values, 0, n);
        sizes[level] = 0;
        oddOffset = !oddOffset; // alternate which half moves up, so the error does not drift one way
        for (int i = oddOffset ? 1 : 0; i < n; i += 2) {
            insert(level + 1, values[i]);
        }
    }

    /** Heap bytes of the values held. */
    long bytes() {
        long b = 64;
        for (double[] l : levels) {
            b += l == null ? 0 : 16 + 8L * l.length;
        }
        return b;
    }

    /** The state: per level its size, then its values. */
    void writeTo(List<Double> out) {
        for (int level = 0; level < levels.length; level++) {
            out.add((double) sizes[level]);
            for (int i = 0; i < sizes[level]; i++) {
                out.add(levels[level][i]);
            }
        }
    }

    /** Adds a state written by {@link #writeTo}. */
    void merge(List<?> state) {
        int at = 0;
        for (int level = 0; at < state.size(); level++) {
            int n = ((Double) state.get(at++)).intValue();
            for (int i = 0; i < n; i++) {
                insert(level, (Double) state.get(at++));
            }
        }
    }

    /** The smallest value whose rank (weights counted) reaches {@code p} of the total; NaN when empty. */
    double quantile(double p) {
        int total = 0;
        for (int s : sizes) {
            total += s;
        }
        double[] values = new double[total];
        long[] weights = new long[total];
        int at = 0;
        long weight = 0;
        for (int level = 0; level < levels.length; level++) {
            for (int i = 0; i < sizes[level]; i++) {
                values[at] = levels[level][i];
                weights[at++] = 1L << level;
                weight += 1L << level;
            }
        }
        if (total == 0) {
            return Double.NaN;
        }
        Integer[] order = new Integer[total];
        for (int i = 0; i < total; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        double target = p * weight;
        long cumulative = 0;
        for (int i : order) {
            cumulative += weights[i];
            if (cumulative >= target) {
                return values[i];
            }
        }
        return values[order[total - 1]];
    }
}
