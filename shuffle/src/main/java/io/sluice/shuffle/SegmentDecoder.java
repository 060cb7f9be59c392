package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.common.Closeables;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * Decodes one segment (an Arrow IPC stream, any body compression) into {@link Batch}es as its
 * bytes arrive. Each batch gets its own vectors from the reading task's allocator, moved out of
 * the reader's reused root, so it outlives the decoder and belongs to the caller.
 *
 * <p>The segment's length and CRC32C are checked against the index before its first byte is decoded
 * ({@link ChecksumChannel}); at the end of the stream, that all of it was read and its row count.
 * Any failure (a decode error, a truncated or corrupt segment, a lost connection) is a
 * {@link ShuffleFetchException} naming the block and its server. Caveat: batches handed out before
 * a failure are not retracted, so a consumer must treat the failure as failing its whole task
 * (which it does).
 */
final class SegmentDecoder implements AutoCloseable {
    private Schema schema;
    private final BlockLocation block;
    private final ChecksumChannel channel;
    private final long expectedRows;
    private final BufferAllocator allocator;
    private final ArrowStreamReader reader;
    private VectorSchemaRoot root;
    private long rows;
    private boolean done;

    SegmentDecoder(ChecksumChannel channel, long expectedRows, Schema schema, BufferAllocator allocator,
            BlockLocation block) {
        this.channel = requireNonNull(channel, "channel is null");
        this.schema = schema;
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.block = requireNonNull(block, "block is null");
        this.expectedRows = expectedRows;
        this.reader = new ArrowStreamReader(channel, allocator, ShuffleCompression.DECODERS);
    }

    /** The next non-empty batch, or null once the whole segment was read and verified. */
    Batch next() {
        if (done) {
            return null;
        }
        if (channel.length() == 0 && expectedRows == 0) {
            // An empty partition has no bytes at all, not even a schema.
            done = true;
            return null;
        }
        try {
            if (root == null) {
                root = reader.getVectorSchemaRoot();
                Schema actual = Schema.fromArrow(root.getSchema());
                if (schema == null) {
                    schema = actual;
                } else if (!sameColumns(actual)) {
                    throw block.failure("segment has schema " + actual + ", expected " + schema, null);
                }
            }
            while (reader.loadNextBatch()) {
                if (root.getRowCount() > 0) {
                    rows += root.getRowCount();
                    return detach();
                }
            }
            channel.verifyComplete();
            if (rows != expectedRows) {
                throw new IOException("segment has " + rows + " rows, the index says " + expectedRows);
            }
            done = true;
            return null;
        } catch (ShuffleFetchException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof RemoteSegment.ConnectionLost) {
                    throw block.serverLost(String.valueOf(t.getMessage()), e);
                }
            }
            throw block.failure(String.valueOf(e.getMessage()), e);
        }
    }

    long bytesRead() {
        return channel.bytesRead();
    }

    private boolean sameColumns(Schema actual) {
        if (actual.size() != schema.size()) {
            return false;
        }
        for (int i = 0; i < schema.size(); i++) {
            if (!actual.field(i).type().equals(schema.field(i).type())) {
                return false;
            }
        }
        return true;
    }

    private Batch detach() {
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        try {
            for (FieldVector from : root.getFieldVectors()) {
                var transfer = from.getTransferPair(allocator);
                transfer.transfer();
                vectors.add((FieldVector) transfer.getTo());
            }
            VectorSchemaRoot owned = new VectorSchemaRoot(schema.toArrow().getFields(), vectors, root.getRowCount());
            return new Batch(schema, owned);
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
    }

    /** Releases the reader's memory and the underlying channel (a remote one gives up its connection if unfinished). */
    @Override
    public void close() {
        // Closing releases memory first; a failing channel close leaves nothing to release, but is logged.
        Closeables.closeLogging(reader, block);
    }
}
