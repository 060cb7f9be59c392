package io.sluice.operators.memory;

import static java.util.Objects.requireNonNull;

import io.sluice.common.Closeables;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Lz4FrameCodec;
import io.sluice.kernels.MessageUnloader;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;

/**
 * One spilled run of rows: an Arrow IPC stream file whose record batch bodies are LZ4 frame
 * compressed, written batch by batch ({@link Writer}) and read back batch by batch as heap columns
 * ({@link Reader}), so neither side holds more than one batch of Arrow memory.
 */
public final class SpillRun {
    private static final CompressionCodec.Factory CODECS = new CompressionCodec.Factory() {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type) {
            return type == CompressionUtil.CodecType.LZ4_FRAME ? new Lz4FrameCodec() : NoCompressionCodec.INSTANCE;
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
            return createCodec(type);
        }
    };

    private SpillRun() {
    }

    /** A spill file's rows as a stream of batches; closing it (or reading it to the end) deletes the file. */
    public static io.sluice.kernels.BatchStream stream(Path file, Schema schema, BufferAllocator allocator) {
        Reader reader = new Reader(file, schema, allocator);
        return new io.sluice.kernels.BatchStream() {
            @Override
            public Batch next() {
                Col[] columns = reader.next();
                if (columns == null) {
                    reader.close();
                    return null;
                }
                return Batch.of(schema, columns, columns.length == 0 ? 0 : columns[0].length, allocator);
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    /** Writes batches of one schema to a new spill file. */
    public static final class Writer implements AutoCloseable {
        private final Path file;
        private final Schema schema;
        private final BufferAllocator allocator;
        private final CountingOutput counting;
        private final WriteChannel channel;
        private final CompressionCodec codec = new Lz4FrameCodec();
        private long rows;
        private boolean finished;

        public Writer(Path file, Schema schema, BufferAllocator allocator) {
            this.file = requireNonNull(file, "file is null");
            this.schema = requireNonNull(schema, "schema is null");
            this.allocator = requireNonNull(allocator, "allocator is null");
            try {
                counting = new CountingOutput(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
                channel = new WriteChannel(Channels.newChannel(counting));
                MessageSerializer.serialize(channel, schema.toArrow());
            } catch (IOException e) {
                SpillFiles.delete(file);
                throw new UncheckedIOException("cannot write spill file " + file, e);
            }
        }

        /** Appends rows {@code [from, from + count)} of {@code columns}, in batches of at most {@code batchSize}. */
        public void write(Col[] columns, int from, int count, int batchSize) {
            for (int at = from; at < from + count; at += batchSize) {
                int n = Math.min(batchSize, from + count - at);
                Col[] slice = new Col[columns.length];
                for (int c = 0; c < columns.length; c++) {
                    slice[c] = columns[c].slice(at, n);
                }
                try (Batch batch = Batch.of(schema, slice, n, allocator);
                        ArrowRecordBatch message = MessageUnloader.unload(batch.root(), codec)) {
                    MessageSerializer.serialize(channel, message);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write spill file " + file, e);
                }
                rows += n;
            }
        }

        /** Appends the rows of {@code root} (Arrow vectors of this run's schema, which the caller keeps and closes) as one batch. */
        public void write(org.apache.arrow.vector.VectorSchemaRoot root) {
            try (ArrowRecordBatch message = MessageUnloader.unload(root, codec)) {
                MessageSerializer.serialize(channel, message);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write spill file " + file, e);
            }
            rows += root.getRowCount();
        }

        /** Ends the stream and closes the file; returns the bytes written. */
        public long finish() {
            if (!finished) {
                finished = true;
                try {
                    ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
                    counting.close();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write spill file " + file, e);
                }
            }
            return counting.written;
        }

        public long rows() {
            return rows;
        }

        public Path file() {
            return file;
        }

        /** Closes the file if {@link #finish} was not called (after a failure); the caller deletes it. */
        @Override
        public void close() {
            if (!finished) {
                finished = true;
                // the file is being abandoned (the caller deletes it): a failing close is only logged
                Closeables.closeLogging(counting, file);
            }
        }
    }

    /** Reads a spill file back, one batch of heap columns at a time; closing it deletes the file. */
    public static final class Reader implements AutoCloseable {
        private final Path file;
        private final Schema schema;
        private final InputStream in;
        private final ArrowStreamReader reader;
        private final boolean deleteOnClose;
        private boolean closed;

        public Reader(Path file, Schema schema, BufferAllocator allocator) {
            this(file, schema, allocator, true);
        }

        /** With {@code deleteOnClose} false, the file stays for another read (whose reader deletes it). */
        public Reader(Path file, Schema schema, BufferAllocator allocator, boolean deleteOnClose) {
            this.deleteOnClose = deleteOnClose;
            this.file = requireNonNull(file, "file is null");
            this.schema = requireNonNull(schema, "schema is null");
            try {
                in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read spill file " + file, e);
            }
            reader = new ArrowStreamReader(in, allocator, CODECS);
        }

        /** The next batch's columns, or null at the end. */
        public Col[] next() {
            try {
                if (!reader.loadNextBatch()) {
                    return null;
                }
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                Col[] out = new Col[schema.size()];
                for (int c = 0; c < out.length; c++) {
                    out[c] = Col.read(root.getVector(c), schema.field(c).type());
                }
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read spill file " + file, e);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close spill file " + file, e);
            } finally {
                if (deleteOnClose) {
                    SpillFiles.delete(file);
                }
            }
        }
    }

    private static final class CountingOutput extends OutputStream {
        private final OutputStream out;
        long written;

        CountingOutput(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            written++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            written += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
