package io.sluice.operators;

import io.sluice.operators.memory.MemoryMetricsSink;
import java.util.List;

/**
 * What each operator of one task's plan did, by the operator's position in a pre-order walk of
 * the stage plan below its shuffle writer (the root is 0, then its first child's subtree, ...):
 * output rows, output batches, the nanoseconds spent in the operator itself (its
 * {@code execute}, {@code next} and {@code close}, less the time its children spent in theirs),
 * the most memory its reservations held at once, and its spills: bytes written, how many, and the
 * nanoseconds they took (part of its own time), the hash tables it built itself (a broadcast
 * join whose table another task of the stage built on the same worker counts none), the data
 * files it opened (a scan) and the rows a scan read but rejected before decoding them whole.
 */
public record OperatorMetrics(long[] rows, long[] batches, long[] nanos, long[] peakMemory, long[] spilledBytes,
        long[] spills, long[] spillNanos, long[] builds, long[] filesOpened, long[] rowsSkipped) {
    public OperatorMetrics {
        int n = rows.length;
        if (batches.length != n || nanos.length != n || peakMemory.length != n || spilledBytes.length != n
                || spills.length != n || spillNanos.length != n || builds.length != n || filesOpened.length != n
                || rowsSkipped.length != n) {
            throw new IllegalArgumentException("one entry per operator in each array");
        }
        rows = rows.clone();
        batches = batches.clone();
        nanos = nanos.clone();
        peakMemory = peakMemory.clone();
        spilledBytes = spilledBytes.clone();
        spills = spills.clone();
        spillNanos = spillNanos.clone();
        builds = builds.clone();
        filesOpened = filesOpened.clone();
        rowsSkipped = rowsSkipped.clone();
    }

    /** Metrics without memory figures (nothing reserved, nothing spilled). */
    public OperatorMetrics(long[] rows, long[] batches, long[] nanos) {
        this(rows, batches, nanos, new long[rows.length], new long[rows.length], new long[rows.length],
                new long[rows.length], new long[rows.length], new long[rows.length], new long[rows.length]);
    }

    public int operatorCount() {
        return rows.length;
    }

    /** Counters of one operator in one task; filled while the task runs (on the task's thread). */
    public static final class Counter implements MemoryMetricsSink {
        long rows;
        long batches;
        long nanos;
        long peakMemory;
        long spilledBytes;
        long spills;
        long spillNanos;
        long builds;
        long filesOpened;
        long rowsSkipped;

        public void addBatch(int batchRows, long elapsedNanos) {
            rows += batchRows;
            batches++;
            nanos += elapsedNanos;
        }

        public void addTime(long elapsedNanos) {
            nanos += elapsedNanos;
        }

        /** The operator's reservations are summed by the last peak each reported (an operator usually holds one). */
        @Override
        public synchronized void peakMemory(long bytes) {
            peakMemory = Math.max(peakMemory, bytes);
        }

        @Override
        public synchronized void spilled(long bytes, long elapsedNanos) {
            spilledBytes += bytes;
            spills++;
            spillNanos += elapsedNanos;
        }

        @Override
        public synchronized void built() {
            builds++;
        }

        @Override
        public synchronized void fileOpened() {
            filesOpened++;
        }

        @Override
        public synchronized void rowsSkipped(long skipped) {
            rowsSkipped += skipped;
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
        long[] peak = new long[n];
        long[] spilled = new long[n];
        long[] spills = new long[n];
        long[] spillNanos = new long[n];
        long[] builds = new long[n];
        long[] files = new long[n];
        long[] skipped = new long[n];
        for (int i = 0; i < n; i++) {
            Counter c = counters.get(i);
            rows[i] = c.rows;
            batches[i] = c.batches;
            long own = c.nanos;
            for (int child : childrenOf.get(i)) {
                own -= counters.get(child).nanos;
            }
            nanos[i] = Math.max(0, own);
            synchronized (c) {
                peak[i] = c.peakMemory;
                spilled[i] = c.spilledBytes;
                spills[i] = c.spills;
                spillNanos[i] = c.spillNanos;
                builds[i] = c.builds;
                files[i] = c.filesOpened;
                skipped[i] = c.rowsSkipped;
            }
        }
        return new OperatorMetrics(rows, batches, nanos, peak, spilled, spills, spillNanos, builds, files, skipped);
    }
}
