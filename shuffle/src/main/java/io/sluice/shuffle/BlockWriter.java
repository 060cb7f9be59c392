package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.types.Schema;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * Appends batches to one shuffle block: an Arrow IPC stream file. Data goes to a uniquely named
 * temporary file in the same directory that {@link #commit()} renames into place atomically, so a
 * reader (or a concurrent attempt of the same map task) never sees a partial block, and
 * {@link #abort()} leaves nothing behind.
 *
 * <p>Owns a staging {@link VectorSchemaRoot} allocated from the task's allocator; buffers of an
 * appended batch are moved into it for the write and released right after.
 */
final class BlockWriter {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path finalPath;
    private final Path tempPath;
    private final OutputStream out;
    private final VectorSchemaRoot staging;
    private final ArrowStreamWriter writer;
    private boolean finished;

    private BlockWriter(Path finalPath, Path tempPath, OutputStream out, VectorSchemaRoot staging,
            ArrowStreamWriter writer) {
        this.finalPath = finalPath;
        this.tempPath = tempPath;
        this.out = out;
        this.staging = staging;
        this.writer = writer;
    }

    /** Opens a block for ({@code map}, {@code partition}) in {@code shuffleDirectory}, which must exist. */
    static BlockWriter open(Path shuffleDirectory, int map, int partition, Schema schema, BufferAllocator allocator) {
        requireNonNull(schema, "schema is null");
        requireNonNull(allocator, "allocator is null");
        String name = ShuffleBlocks.fileName(map, partition);
        Path temp = null;
        OutputStream out = null;
        VectorSchemaRoot staging = null;
        try {
            temp = Files.createTempFile(shuffleDirectory, name + ".", ".tmp");
            out = new BufferedOutputStream(Files.newOutputStream(temp), BUFFER_BYTES);
            staging = VectorSchemaRoot.create(schema.toArrow(), allocator);
            ArrowStreamWriter writer = new ArrowStreamWriter(staging, null, Channels.newChannel(out));
            writer.start();
            return new BlockWriter(shuffleDirectory.resolve(name), temp, out, staging, writer);
        } catch (IOException | RuntimeException e) {
            if (staging != null) {
                staging.close();
            }
            closeQuietly(out);
            deleteQuietly(temp);
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot open shuffle block " + name + " in " + shuffleDirectory, io);
            }
            throw (RuntimeException) e;
        }
    }

    /**
     * Writes {@code batch} as one record batch. Its buffers are moved out, so the batch is empty
     * afterwards; the caller still closes it.
     */
    void append(Batch batch) {
        checkOpen();
        VectorSchemaRoot source = batch.root();
        int columns = staging.getFieldVectors().size();
        if (source.getFieldVectors().size() != columns) {
            throw new IllegalArgumentException("batch has " + source.getFieldVectors().size() + " columns, block "
                    + columns);
        }
        try {
            for (int i = 0; i < columns; i++) {
                FieldVector from = source.getVector(i);
                from.makeTransferPair(staging.getVector(i)).transfer();
            }
            staging.setRowCount(batch.rowCount());
            writer.writeBatch();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write shuffle block " + tempPath, e);
        } finally {
            staging.clear();
        }
    }

    /** Ends the stream and moves the file into place; returns the block's size in bytes. */
    long commit() {
        checkOpen();
        finished = true;
        try {
            writer.end();
            writer.close();
            out.close();
            long size = Files.size(tempPath);
            Files.move(tempPath, finalPath, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return size;
        } catch (IOException | RuntimeException e) {
            closeQuietly(out);
            deleteQuietly(tempPath);
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot commit shuffle block " + finalPath, io);
            }
            throw (RuntimeException) e;
        } finally {
            staging.close();
        }
    }

    /** Releases everything and deletes the temporary file; safe after a failed {@link #commit()}. */
    void abort() {
        if (finished) {
            return;
        }
        finished = true;
        try {
            writer.close();
        } catch (RuntimeException ignored) {
            // Already failing; the file is deleted below.
        }
        closeQuietly(out);
        staging.close();
        deleteQuietly(tempPath);
    }

    private void checkOpen() {
        if (finished) {
            throw new IllegalStateException("shuffle block " + finalPath + " is already finished");
        }
    }

    private static void closeQuietly(OutputStream out) {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // Nothing more to do on a failure path.
            }
        }
    }

    private static void deleteQuietly(Path path) {
        if (path != null) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // Best effort: a stray temp file is ignored by readers (they only open committed names).
            }
        }
    }
}
