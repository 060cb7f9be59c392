package io.sluice.cluster.protocol;

/**
 * What one task (or, summed, a job) did: its wall time, and its shuffle work: rows and bytes
 * written and the time spent writing them, rows read, bytes read from its own worker's disk and
 * from other workers, and the time spent blocked waiting for remote bytes; and its memory: the
 * most its pool held at once (summed: the largest of one task), and the bytes and number of its
 * spills (summed); and the JVM's garbage collection time while it ran (the whole worker JVM's, as
 * Spark counts it: tasks running at once on one worker each see the same pauses).
 */
public record TaskMetrics(long taskNanos, long recordsWritten, long bytesWritten, long writeNanos, long recordsRead,
        long localBytesRead, long remoteBytesRead, long fetchWaitNanos, long peakMemory, long spilledBytes, long spills,
        long gcNanos) {
    public static final TaskMetrics ZERO = new TaskMetrics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Metrics without garbage collection time. */
    public TaskMetrics(long taskNanos, long recordsWritten, long bytesWritten, long writeNanos, long recordsRead,
            long localBytesRead, long remoteBytesRead, long fetchWaitNanos, long peakMemory, long spilledBytes,
            long spills) {
        this(taskNanos, recordsWritten, bytesWritten, writeNanos, recordsRead, localBytesRead, remoteBytesRead,
                fetchWaitNanos, peakMemory, spilledBytes, spills, 0);
    }

    /** Metrics of a task that reserved no memory and spilled nothing. */
    public TaskMetrics(long taskNanos, long recordsWritten, long bytesWritten, long writeNanos, long recordsRead,
            long localBytesRead, long remoteBytesRead, long fetchWaitNanos) {
        this(taskNanos, recordsWritten, bytesWritten, writeNanos, recordsRead, localBytesRead, remoteBytesRead,
                fetchWaitNanos, 0, 0, 0, 0);
    }

    public TaskMetrics plus(TaskMetrics o) {
        return new TaskMetrics(taskNanos + o.taskNanos, recordsWritten + o.recordsWritten, bytesWritten + o.bytesWritten,
                writeNanos + o.writeNanos, recordsRead + o.recordsRead, localBytesRead + o.localBytesRead,
                remoteBytesRead + o.remoteBytesRead, fetchWaitNanos + o.fetchWaitNanos, Math.max(peakMemory, o.peakMemory),
                spilledBytes + o.spilledBytes, spills + o.spills, gcNanos + o.gcNanos);
    }

    /** Fetch wait as a share of task time (0 when no time was recorded). */
    public double fetchWaitShare() {
        return taskNanos == 0 ? 0 : (double) fetchWaitNanos / taskNanos;
    }
}
