package io.sluice.plan.physical;

import java.util.List;

/**
 * What each operator of one task's plan did, by the operator's position in a pre-order walk of
 * the stage plan below its shuffle writer (the root is 0, then its first child's subtree, ...):
 * output rows, output batches and the nanoseconds spent in the operator itself (its
 * {@code execute}, {@code next} and {@code close}, less the time its children spent in theirs).
 */
public record OperatorMetrics(long[] rows, long[] batches, long[] nanos) {
    public OperatorMetrics {
        if (rows.length != batches.length || rows.length != nanos.length) {
            throw new IllegalArgumentException("one entry per operator in each array");
        }
        rows = rows.clone();
        batches = batches.clone();
        nanos = nanos.clone();
    }

    public int operatorCount() {
        return rows.length;
    }

    /** Counters of one operator in one task; filled while the task runs. */
    public static final class Counter {
        long rows;
        long batches;
        long nanos;

        public void addBatch(int batchRows, long elapsedNanos) {
            rows += batchRows;
            batches++;
            nanos += elapsedNanos;
        }

        public void addTime(long elapsedNanos) {
            nanos += elapsedNanos;
        }
    }

    /**
     * The metrics of counters listed in pre-order, where {@code childrenOf.get(i)} are the indexes
     * of operator i's children; their inclusive times are subtracted to give each operator's own.
     */
    public static OperatorMetrics of(List<Counter> counters, List<List<Integer>> childrenOf) {
        int n = counters.size();
        long[] rows = new long[n];
        long[] batches = new long[n];
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            Counter c = counters.get(i);
            rows[i] = c.rows;
            batches[i] = c.batches;
            long own = c.nanos;
            for (int child : childrenOf.get(i)) {
                own -= counters.get(child).nanos;
            }
            nanos[i] = Math.max(0, own);
        }
        return new OperatorMetrics(rows, batches, nanos);
    }
}
