package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.common.Closeables;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.MessageUnloader;
import io.sluice.operators.memory.HeapSize;
import io.sluice.operators.memory.MemoryMetricsSink;
import io.sluice.operators.memory.MemoryReservation;
import io.sluice.operators.memory.TaskMemoryPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one map task's output as one data file and one index file (see {@link ShuffleBlocks},
 * {@link SegmentIndex}). Segment {@code r} of the data file is a complete Arrow IPC stream
 * (schema, record batches, end-of-stream) holding every row routed to partition {@code r}, in
 * arrival order.
 *
 * <p>Bounded design: the writer takes each input batch and buffers its rows per partition by
 * reference, in the forms the batch holds its columns (see {@link PartitionBuffer}: vectors stay
 * Arrow, strings are never decoded); the held vectors count in the task's memory through its
 * allocator, the heap columns are reserved, and what writing one batch allocates (the gathered
 * vectors and their compressed copies, rounded up by the allocator: {@link DrainFootprint}) is
 * reserved in the allocator itself before more is held, so a spill never needs memory that other
 * operators could take first, though never more than a part of the task's share
 * ({@link #DRAIN_SHARE_PARTS}); the drain writes smaller batches rather than exceed it. Once more than
 * {@code maxBufferedRows} are buffered in total, or the reservation is refused, all buffers are <em>spilled</em> to a spill file as
 * record batch messages in partition order (a sorted run), and an in-memory table remembers each
 * run's byte range per partition. {@link #commit(String)} then writes the data file partition by
 * partition: schema message, the raw bytes of that partition's messages from every spill (copied,
 * not decoded), the rows still buffered, end-of-stream. IPC messages are self-contained and
 * 8-byte multiples, so concatenating them yields a valid stream. A task therefore holds at most
 * {@code maxBufferedRows} rows and at most two open files (the output being written and
 * one spill file being read), whatever the partition count. With a single partition there is no
 * order to restore, so buffered rows go straight to the data file instead of a spill.
 *
 * <p>Data goes to temporary names renamed into place by {@link #commit(String)} (data first, then index),
 * so a reader never sees a partial output; {@link #abort()} deletes everything. When two attempts
 * of one map task both finish on a worker (a retry after a timeout while the first attempt still
 * ran), the first to commit wins: the index is the commit marker and names its task
 * ({@code owner}); a later attempt of the same task that finds it discards its own files and
 * reports the committed output's sizes, so an output readers were told about is never replaced
 * under them. A different task (a recomputation of a lost or corrupt output) replaces it, and so
 * does any writer when the owner is unknown (empty). Not thread-safe; commits of one output are
 * serialized across writers.
 */
final class MapOutputWriter {
    private static final Logger LOG = LoggerFactory.getLogger(MapOutputWriter.class);

    private static final int COPY_BUFFER = 256 * 1024;
    private static final String TEMPORARY_NONCE = Long.toHexString(ThreadLocalRandom.current().nextLong());
    private static final AtomicLong TEMPORARIES = new AtomicLong();

    /**
     * The drain is promised at most this part of the task's fair share ({@link MemoryReservation#fairShare}):
     * the rest is for the rows held and the batches coming in. On a small worker its batches are
     * then smaller; on a usual one a whole batch's footprint is a sliver of the share.
     */
    static final int DRAIN_SHARE_PARTS = 4;

    private final Path dataFile;
    private boolean committedByOther;
    private final Path indexFile;
    private final Path directory;
    private final int map;
    private final Schema schema;
    private final BufferAllocator allocator;
    private final CompressionCodec codec;
    private final int batchSize;
    private final long maxBufferedRows;
    private final PartitionBuffer[] buffers;
    /** The batches the buffers hold rows of, closed once those rows are written. */
    private final List<Batch> held = new ArrayList<>();
    private final long[] rows;
    private final List<ShuffleSpill> spills = new ArrayList<>();
    private final List<Path> temporaries = new ArrayList<>();
    private Direct direct;
    private long bufferedRows;
    private final MemoryReservation reservation;
    private final DrainFootprint footprint;
    /** What a drain is promised in the task's allocator (its headroom is held in {@link #reservation} too). */
    private final DrainReservation drain;
    private long bufferedBytes;
    /** The most Arrow bytes a row of any held batch took, to size a drained batch. */
    private long rowBytes;
    private long writeNanos;
    private long bytesWritten;
    private boolean finished;

    /** The data file being written directly (one partition only). */
    private record Direct(Path file, CheckedOutput out, WriteChannel channel) {
    }

    /** {@code dataFile} and {@code indexFile} are the final names; their directory must exist. */
    MapOutputWriter(Path dataFile, Path indexFile, int map, Schema schema, int partitions, BufferAllocator allocator,
            ShuffleCompression compression, int batchSize, long maxBufferedRows) {
        this(dataFile, indexFile, map, schema, partitions, allocator, compression, batchSize, maxBufferedRows,
                TaskMemoryPool.unbounded("map-" + map).register("shuffle buffers", MemoryMetricsSink.NONE));
    }

    /**
     * A writer whose buffered rows are held under {@code reservation}: when it is refused, the
     * buffers spill early, as they do past {@code maxBufferedRows}. The caller closes the reservation.
     */
    MapOutputWriter(Path dataFile, Path indexFile, int map, Schema schema, int partitions, BufferAllocator allocator,
            ShuffleCompression compression, int batchSize, long maxBufferedRows, MemoryReservation reservation) {
        this.reservation = requireNonNull(reservation, "reservation is null");
        this.dataFile = requireNonNull(dataFile, "dataFile is null");
        this.indexFile = requireNonNull(indexFile, "indexFile is null");
        this.directory = dataFile.toAbsolutePath().getParent();
        this.schema = requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.codec = requireNonNull(compression, "compression is null").newCodec();
        this.footprint = new DrainFootprint(compression, allocator.getRoundingPolicy());
        this.drain = new DrainReservation(allocator, map);
        if (map < 0 || partitions < 1 || batchSize < 1 || maxBufferedRows < 1) {
            throw new IllegalArgumentException("bad map output writer: map=" + map + " partitions=" + partitions
                    + " batchSize=" + batchSize + " maxBufferedRows=" + maxBufferedRows);
        }
        this.map = map;
        this.batchSize = batchSize;
        this.maxBufferedRows = maxBufferedRows;
        this.buffers = new PartitionBuffer[partitions];
        this.rows = new long[partitions];
    }

    /**
     * Takes {@code batch} (the writer closes it once its rows are written, or on {@link #abort()})
     * and buffers its row {@code i} for partition {@code target[i]} (every row for {@code partition}
     * when {@code target} is null), in input order within each partition; may spill. The batch is
     * held as Arrow vectors (see {@link PartitionBuffer}; a heap column is written to one here),
     * which count in the task's memory as they are; heap columns it still references are charged
     * to the reservation.
     */
    void add(Batch batch, int partition, int[] target) {
        requireNonNull(batch, "batch is null");
        int count = batch.rowCount();
        if (finished || count == 0) {
            batch.close();
            checkOpen();
            return;
        }
        held.add(batch);
        // buffered and gathered as Arrow only: a column the batch holds on the heap is written once here
        batch.root();
        int n = buffers.length;
        int only = target == null ? partition : target[0];
        int[] counts = new int[n];
        if (target != null) {
            for (int i = 0; i < count; i++) {
                counts[target[i]]++;
            }
        }
        if (target == null || counts[only] == count) {
            buffer(only).add(batch, null, 0, count);
            rows[only] += count;
        } else {
            // Counting sort of row indexes by partition; each partition's rows keep their input order.
            int[] starts = new int[n + 1];
            for (int r = 0; r < n; r++) {
                starts[r + 1] = starts[r] + counts[r];
            }
            int[] order = new int[count];
            int[] fill = Arrays.copyOf(starts, n);
            for (int i = 0; i < count; i++) {
                order[fill[target[i]]++] = i;
            }
            // Each partition keeps its slice of the row order; its rows are copied once, when written.
            for (int r = 0; r < n; r++) {
                if (counts[r] > 0) {
                    buffer(r).add(batch, order, starts[r], counts[r]);
                    rows[r] += counts[r];
                }
            }
            bufferedBytes += 4L * count;
        }
        bufferedRows += count;
        bufferedBytes += heapBytes(batch);
        rowBytes = Math.max(rowBytes, arrowBytes(batch) / count + 1);
        // Writing takes a batch's gathered vectors and their compressed copies, rounded up by the
        // allocator: reserved ahead, so that the spill a refusal starts has the memory it needs.
        // At most a part of the task's share is promised ahead: a whole batch's footprint (its buffers
        // rounded up to powers of two, and their compressed copies) can pass a small worker's share.
        long most = Math.max(DrainFootprint.LEAST_BATCH_BYTES, reservation.fairShare() / DRAIN_SHARE_PARTS);
        drain.shrinkTo(most);
        boolean drainable = drain.reserve(Math.min(most,
                footprint.estimate(Math.min(bufferedRows, batchSize), rowBytes, schema.size())));
        // the held vectors grow the task's memory without the reservation growing: ask about the share too
        if (bufferedRows > maxBufferedRows || !drainable || !reservation.tryResize(bufferedBytes + drain.headroom())
                || !reservation.withinShare()) {
            spill();
        }
    }

    private PartitionBuffer buffer(int partition) {
        PartitionBuffer buffer = buffers[partition];
        if (buffer == null) {
            buffer = new PartitionBuffer(schema);
            buffers[partition] = buffer;
        }
        return buffer;
    }

    /** The Arrow memory the batch's vectors hold (counted in the task's memory through its allocator). */
    private static long arrowBytes(Batch batch) {
        long bytes = 0;
        for (int c = 0; c < batch.schema().size(); c++) {
            org.apache.arrow.vector.FieldVector v = batch.arrowVector(c);
            if (v != null) {
                bytes += v.getBufferSize();
            }
        }
        return bytes;
    }

    /** The heap the batch's unpacked columns retain (its vectors count in the task's allocator). */
    private static long heapBytes(Batch batch) {
        long bytes = 0;
        for (int c = 0; c < batch.schema().size(); c++) {
            if (batch.hasColumn(c)) {
                bytes += HeapSize.of(batch.column(c));
            }
        }
        return bytes;
    }

    /** Closes the batches whose rows are all written (or dropped) and returns their memory. */
    private void releaseHeld() {
        for (Batch batch : held) {
            batch.close();
        }
        held.clear();
        bufferedBytes = 0;
        rowBytes = 0;
        reservation.tryResize(drain.headroom());
    }

    /** Returns everything: the held batches and the drain's reservation (the writer is finished). */
    private void release() {
        releaseHeld();
        drain.close();
        reservation.free();
    }

    long recordsWritten() {
        long total = 0;
        for (long r : rows) {
            total += r;
        }
        return total;
    }

    /** Locks striped by output, so that two attempts of one map task commit one after the other. */
    private static final Object[] COMMIT_LOCKS = new Object[64];

    static {
        for (int i = 0; i < COMMIT_LOCKS.length; i++) {
            COMMIT_LOCKS[i] = new Object();
        }
    }

    private static Object commitLock(Path index) {
        return COMMIT_LOCKS[Math.floorMod(index.toAbsolutePath().hashCode(), COMMIT_LOCKS.length)];
    }

    /** Whether {@link #commit(String)} found another attempt's output already committed and kept it. */
    boolean committedByOther() {
        return committedByOther;
    }

    /** Bytes of the committed data file. */
    long bytesWritten() {
        return bytesWritten;
    }

    /** Time spent encoding and writing (spills and the final files). */
    long writeNanos() {
        return writeNanos;
    }

    /** Writes the data and index files; returns each partition's segment length in bytes (0 for empty ones). */
    long[] commit(String owner) {
        checkOpen();
        finished = true;
        long start = System.nanoTime();
        Path data = dataFile;
        Path index = indexFile;
        try {
            Path dataTemp;
            SegmentIndex.Segment[] segments;
            if (direct != null) {
                dataTemp = direct.file();
                segments = new SegmentIndex.Segment[] {finishDirect()};
            } else {
                dataTemp = newTemporary(data.getFileName() + ".");
                segments = writePartitions(dataTemp);
            }
            Path indexTemp = newTemporary(index.getFileName() + ".");
            SegmentIndex.write(indexTemp, segments, owner);
            synchronized (commitLock(index)) {
                if (!owner.isEmpty() && Files.exists(index) && owner.equals(SegmentIndex.owner(index))) {
                    // an earlier attempt committed this output: keep it, ours goes with the temporaries
                    committedByOther = true;
                    bytesWritten = Files.size(data);
                    return SegmentIndex.lengths(index);
                }
                Files.move(dataTemp, data, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                Files.move(indexTemp, index, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            long[] lengths = new long[segments.length];
            for (int r = 0; r < segments.length; r++) {
                lengths[r] = segments[r].length();
            }
            return lengths;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write shuffle output of map " + map + " in " + directory + ": " + e, e);
        } finally {
            writeNanos += System.nanoTime() - start;
            release();
            deleteTemporaries();
        }
    }

    /** Writes every partition's segment, in order, from the spills and the buffers; returns the index entries. */
    private SegmentIndex.Segment[] writePartitions(Path dataTemp) throws IOException {
        SegmentIndex.Segment[] segments = new SegmentIndex.Segment[buffers.length];
        try (CheckedOutput out = new CheckedOutput(dataTemp)) {
            WriteChannel channel = new WriteChannel(Channels.newChannel(out));
            // a map task that never spilled (nearly all) has nothing to copy: no buffer to zero
            ByteBuffer copyBuffer = spills.isEmpty() ? null : ByteBuffer.allocate(COPY_BUFFER);
            for (int r = 0; r < buffers.length; r++) {
                long offset = out.position();
                if (rows[r] > 0) {
                    out.resetChecksum();
                    MessageSerializer.serialize(channel, schema.toArrow());
                    for (ShuffleSpill spill : spills) {
                        spill.copyPartition(r, out, copyBuffer);
                    }
                    writeBuffered(r, channel);
                    ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
                }
                long length = out.position() - offset;
                segments[r] = new SegmentIndex.Segment(offset, length, rows[r], length == 0 ? 0 : out.checksum());
            }
            bytesWritten = out.position();
        }
        return segments;
    }

    /**
     * With one partition there is no order to restore: instead of spilling, buffered rows go
     * straight to the data file, which stays open until {@link #commit(String)}.
     */
    private void appendDirect() throws IOException {
        if (direct == null) {
            Path file = newTemporary(dataFile.getFileName() + ".");
            CheckedOutput out = new CheckedOutput(file);
            direct = new Direct(file, out, new WriteChannel(Channels.newChannel(out)));
            MessageSerializer.serialize(direct.channel(), schema.toArrow());
        }
        writeBuffered(0, direct.channel());
    }

    private SegmentIndex.Segment finishDirect() throws IOException {
        try (CheckedOutput out = direct.out()) {
            writeBuffered(0, direct.channel());
            ArrowStreamWriter.writeEndOfStream(direct.channel(), IpcOption.DEFAULT);
            bytesWritten = out.position();
            return new SegmentIndex.Segment(0, out.position(), rows[0], out.checksum());
        }
    }

    /** Deletes every temporary file; safe after a failed {@link #commit(String)} and more than once. */
    void abort() {
        finished = true;
        if (direct != null) {
            // the file is deleted below; a failing close is only logged
            Closeables.closeLogging(direct.out(), "an aborted shuffle file");
        }
        for (int r = 0; r < buffers.length; r++) {
            buffers[r] = null;
        }
        release();
        deleteTemporaries();
    }

    private void spill() {
        long start = System.nanoTime();
        if (buffers.length == 1) {
            try {
                appendDirect();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write shuffle output of map " + map + " in " + directory + ": "
                        + e, e);
            } finally {
                writeNanos += System.nanoTime() - start;
            }
            releaseHeld();
            return;
        }
        long[] offsets = new long[buffers.length];
        long[] lengths = new long[buffers.length];
        Path file = newTemporary("map-" + map + ".spill" + spills.size() + ".");
        try (CheckedOutput out = new CheckedOutput(file)) {
            WriteChannel channel = new WriteChannel(Channels.newChannel(out));
            for (int r = 0; r < buffers.length; r++) {
                offsets[r] = out.position();
                writeBuffered(r, channel);
                lengths[r] = out.position() - offsets[r];
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill shuffle output of map " + map + " to " + file + ": " + e, e);
        } finally {
            writeNanos += System.nanoTime() - start;
        }
        spills.add(new ShuffleSpill(file, offsets, lengths));
        releaseHeld();
        reservation.recordSpill(offsets[buffers.length - 1] + lengths[buffers.length - 1], System.nanoTime() - start);
    }

    /** Writes partition {@code r}'s buffered rows as record batch messages of at most {@code batchSize} rows. */
    private void writeBuffered(int r, WriteChannel channel) throws IOException {
        PartitionBuffer buffer = buffers[r];
        if (buffer == null || buffer.rows() == 0) {
            return;
        }
        bufferedRows -= buffer.rows();
        try {
            buffer.drain(batchSize, drain.allocator(), drain.headroom(), footprint, batch -> {
                try (ArrowRecordBatch message = MessageUnloader.unload(batch.root(), codec)) {
                    MessageSerializer.serialize(channel, message);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * A new temporary's name in the shuffle directory, not yet created: its writer creates it
     * ({@code CREATE_NEW}). Named here rather than made by {@code Files.createTempFile}: the index's
     * temporary was created, deleted and created again, and file creation (the file system's inode
     * work) showed in the map tasks' profile. A name is this JVM's nonce and a counter, so no two
     * writers of one JVM share one (and {@link #deleteTemporaries} never deletes another's file);
     * another process in the same directory would have to draw the same 64-bit nonce.
     */
    private Path newTemporary(String prefix) {
        Path temp = directory.resolve(prefix + TEMPORARY_NONCE + "-" + TEMPORARIES.incrementAndGet() + ".tmp");
        temporaries.add(temp);
        return temp;
    }

    private void deleteTemporaries() {
        for (Path temp : temporaries) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                // Readers only open committed names, and the job's directory goes at its end.
                LOG.warn("cannot delete the temporary shuffle file {}", temp, e);
            }
        }
        temporaries.clear();
    }

    private void checkOpen() {
        if (finished) {
            throw new IllegalStateException("map output " + map + " in " + directory + " is already finished");
        }
    }
}
