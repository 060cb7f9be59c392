package io.sluice.shuffle;

/**
 * What one task did with the shuffle: rows and bytes written (and the time spent encoding and
 * writing them), rows and bytes read from this worker's disk and from other workers, and the time
 * the task spent blocked waiting for remote bytes. Filled by {@link ShuffleWriterExec} and
 * {@link ShuffleReaderExec} through the task's {@link ShuffleEnvironment}; counters only grow.
 * Thread-safe (several readers may run in one task).
 */
public final class ShuffleTaskMetrics {
    private long recordsWritten;
    private long bytesWritten;
    private long writeNanos;
    private long recordsRead;
    private long localBytesRead;
    private long remoteBytesRead;
    private long localSegments;
    private long remoteSegments;
    private long fetchWaitNanos;
    private long peakInFlightBytes;

    synchronized void addWrite(long records, long bytes, long nanos) {
        recordsWritten += records;
        bytesWritten += bytes;
        writeNanos += nanos;
    }

    synchronized void addRecordsRead(long records) {
        recordsRead += records;
    }

    synchronized void addSegmentRead(boolean remote, long bytes, long waitNanos) {
        if (remote) {
            remoteSegments++;
            remoteBytesRead += bytes;
            fetchWaitNanos += waitNanos;
        } else {
            localSegments++;
            localBytesRead += bytes;
        }
    }

    synchronized void observeInFlight(long bytes) {
        peakInFlightBytes = Math.max(peakInFlightBytes, bytes);
    }

    public synchronized long recordsWritten() {
        return recordsWritten;
    }

    public synchronized long bytesWritten() {
        return bytesWritten;
    }

    public synchronized long writeNanos() {
        return writeNanos;
    }

    public synchronized long recordsRead() {
        return recordsRead;
    }

    public synchronized long localBytesRead() {
        return localBytesRead;
    }

    public synchronized long remoteBytesRead() {
        return remoteBytesRead;
    }

    public synchronized long localSegments() {
        return localSegments;
    }

    public synchronized long remoteSegments() {
        return remoteSegments;
    }

    public synchronized long fetchWaitNanos() {
        return fetchWaitNanos;
    }

    /** The most bytes of remote segments this task had requested and not yet consumed at once. */
    public synchronized long peakInFlightBytes() {
        return peakInFlightBytes;
    }

    @Override
    public synchronized String toString() {
        return "written " + recordsWritten + " rows / " + bytesWritten + " B in " + writeNanos / 1_000_000 + " ms; read "
                + recordsRead + " rows, " + localSegments + " local segments / " + localBytesRead + " B, "
                + remoteSegments + " remote segments / " + remoteBytesRead + " B, fetch wait "
                + fetchWaitNanos / 1_000_000 + " ms, peak in flight " + peakInFlightBytes + " B";
    }
}
