package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.protocol.MapOutputColumn;
import io.sluice.cluster.protocol.MapOutputs;
import io.sluice.operators.MapStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The map outputs of the running jobs, by job and shuffle, as Spark's map output tracker keeps
 * them: the scheduler registers a stage's outputs when it finishes (and again when lost ones are
 * recomputed), and a reading task asks for the one column of block sizes its partition reads.
 * Written by the jobs' threads, read by the dispatcher actor: thread-safe.
 */
public final class MapOutputTracker {
    /** Bytes a located block takes in a task message beside its ids' characters (class ids, port, size, lengths). */
    private static final int BLOCK_OVERHEAD_BYTES = 32;

    private final Map<String, Map<String, List<MapStatus>>> jobs = new ConcurrentHashMap<>();
    private final AtomicLong asks = new AtomicLong();

    /** Registers (or replaces) the outputs of {@code shuffleId}, indexed by map task. */
    public void register(String jobId, String shuffleId, List<MapStatus> outputs) {
        requireNonNull(shuffleId, "shuffleId is null");
        List<MapStatus> copy = List.copyOf(requireNonNull(outputs, "outputs is null"));
        jobs.computeIfAbsent(requireNonNull(jobId, "jobId is null"), j -> new ConcurrentHashMap<>()).put(shuffleId, copy);
    }

    /**
     * Bytes of the registered map outputs of running jobs, by shuffle server ({@code host:port}):
     * what the workers hold for stages still to read them (for monitoring).
     */
    public Map<String, Long> bytesByServer() {
        Map<String, Long> out = new java.util.HashMap<>();
        for (Map<String, List<MapStatus>> shuffles : jobs.values()) {
            for (List<MapStatus> outputs : shuffles.values()) {
                for (MapStatus status : outputs) {
                    long bytes = 0;
                    for (long b : status.bytesPerPartition()) {
                        bytes += b;
                    }
                    out.merge(status.host() + ":" + status.port(), bytes, Long::sum);
                }
            }
        }
        return out;
    }

    /** Forgets a finished job's outputs. */
    public void removeJob(String jobId) {
        jobs.remove(jobId);
    }

    /**
     * Per map task, its location and the size of block {@code (map, partition)} only, or null when
     * no such shuffle is registered (its job ended).
     */
    public List<MapStatus> column(String jobId, String shuffleId, int partition) {
        Map<String, List<MapStatus>> shuffles = jobs.get(jobId);
        List<MapStatus> outputs = shuffles == null ? null : shuffles.get(shuffleId);
        if (outputs == null) {
            return null;
        }
        List<MapStatus> column = new ArrayList<>(outputs.size());
        for (MapStatus s : outputs) {
            long[] sizes = s.bytesPerPartition();
            if (partition >= sizes.length) {
                throw new IllegalArgumentException("shuffle " + shuffleId + " has " + sizes.length
                        + " partitions; partition " + partition + " asked");
            }
            column.add(new MapStatus(s.workerId(), s.host(), s.port(), new long[] {sizes[partition]}));
        }
        return column;
    }

    /**
     * A reading task's answer: the {@link #column} of its partition, or why there is none (its job
     * ended, or no such partition).
     */
    public MapOutputs answer(String jobId, String shuffleId, int partition) {
        asks.incrementAndGet();
        try {
            List<MapStatus> column = column(jobId, shuffleId, partition);
            return column == null
                    ? MapOutputs.failed("no map outputs of shuffle " + shuffleId + " for job " + jobId
                            + " (the job has ended)")
                    : MapOutputs.of(column);
        } catch (IllegalArgumentException e) {
            return MapOutputs.failed(e.getMessage());
        }
    }

    /**
     * The columns of {@code reads} that are registered now, for a task being dispatched, in order
     * while their estimated size stays within {@code reads.maxBytes()}: the rest, like partitions of
     * shuffles not registered, are left for the task to {@linkplain #answer ask} for. Read at
     * dispatch, so a task queued while lost outputs were recomputed gets the new locations.
     */
    public List<MapOutputColumn> columns(String jobId, ShuffleReads reads) {
        if (reads.reads().isEmpty()) {
            return List.of();
        }
        List<MapOutputColumn> out = new ArrayList<>(reads.reads().size());
        long bytes = 0;
        for (ShuffleReads.Read read : reads.reads()) {
            List<MapStatus> column;
            try {
                column = column(jobId, read.shuffleId(), read.partition());
            } catch (IllegalArgumentException noSuchPartition) {
                column = null; // the task's ask gets the error
            }
            if (column == null) {
                continue;
            }
            bytes += estimatedBytes(column);
            if (bytes > reads.maxBytes()) {
                break;
            }
            out.add(new MapOutputColumn(read.shuffleId(), read.partition(), column));
        }
        return out;
    }

    /** An upper bound of a column's serialized size for ASCII worker ids and host names. */
    static long estimatedBytes(List<MapStatus> column) {
        long bytes = 0;
        for (MapStatus status : column) {
            bytes += 2L * (status.workerId().length() + status.host().length()) + BLOCK_OVERHEAD_BYTES;
        }
        return bytes;
    }

    /** How many times a task has asked where its blocks are (for tests and measurements). */
    public long asks() {
        return asks.get();
    }

    /** Jobs with registered outputs now (for tests: a finished job leaves none). */
    public int jobCount() {
        return jobs.size();
    }
}
