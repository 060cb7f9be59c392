package io.sluice.kernels;

import io.sluice.common.types.Schema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Arrow IPC stream encoding of results, as the coordinator returns them to clients: whole
 * ({@link #encode}) or batch by batch as they arrive ({@link Encoder}). A result that fails after
 * its first bytes were sent ends with an error trailer instead of ending plainly: the end-of-stream
 * marker (so that an Arrow reader stops there), the error message in UTF-8, its length (4 bytes,
 * big-endian) and {@link #ERROR_MAGIC}. A complete stream ends with the end-of-stream marker alone;
 * a reader checks which it got ({@link #checkEnd}, {@link #checkTrailer}).
 */
public final class ArrowIpc {
    /** The last bytes of a result stream that failed midway. */
    public static final byte[] ERROR_MAGIC = "SLUICE!E".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** Arrow's end-of-stream marker: a continuation token and a zero length. */
    private static final byte[] END_OF_STREAM = {-1, -1, -1, -1, 0, 0, 0, 0};

    private ArrowIpc() {
    }

    /** The bytes that end a stream whose query failed with {@code message} after some of it was sent. */
    public static byte[] errorTrailer(String message) {
        byte[] text = (message == null ? "unknown error" : message).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(END_OF_STREAM.length + text.length + 4 + ERROR_MAGIC.length);
        out.put(END_OF_STREAM).put(text).putInt(text.length).put(ERROR_MAGIC);
        return out.array();
    }

    /**
     * Checks that a whole result stream ended well: a stream ending in an error trailer throws
     * its message, one ending in neither marker was cut off.
     */
    public static void checkEnd(byte[] stream) {
        int n = stream.length;
        if (endsWith(stream, ERROR_MAGIC) && n >= END_OF_STREAM.length + 4 + ERROR_MAGIC.length) {
            int length = java.nio.ByteBuffer.wrap(stream, n - ERROR_MAGIC.length - 4, 4).getInt();
            int start = n - ERROR_MAGIC.length - 4 - length;
            if (length >= 0 && start >= END_OF_STREAM.length) {
                throw new io.sluice.common.SluiceException(new String(stream, start, length,
                        java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        if (!endsWith(stream, END_OF_STREAM)) {
            throw new io.sluice.common.SluiceException("the result stream was cut off before its end");
        }
    }

    /** Checks the bytes that followed the end-of-stream marker of a result: none, or an error trailer (thrown). */
    public static void checkTrailer(byte[] rest) {
        if (rest.length == 0) {
            return;
        }
        byte[] whole = new byte[END_OF_STREAM.length + rest.length];
        System.arraycopy(END_OF_STREAM, 0, whole, 0, END_OF_STREAM.length);
        System.arraycopy(rest, 0, whole, END_OF_STREAM.length, rest.length);
        checkEnd(whole);
        throw new io.sluice.common.SluiceException("the result stream has unexpected bytes after its end");
    }

    private static boolean endsWith(byte[] bytes, byte[] suffix) {
        if (bytes.length < suffix.length) {
            return false;
        }
        for (int i = 0; i < suffix.length; i++) {
            if (bytes[bytes.length - suffix.length + i] != suffix[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Encodes a result batch by batch: each call returns the bytes it produced, to be sent before
     * the next batch is even fetched. The batches stay owned by the caller.
     */
    public static final class Encoder implements AutoCloseable {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final VectorSchemaRoot staging;
        private final ArrowStreamWriter writer;
        private final VectorLoader loader;

        public Encoder(Schema schema, BufferAllocator allocator) {
            this.staging = VectorSchemaRoot.create(schema.toArrow(), allocator);
            this.writer = new ArrowStreamWriter(staging, null, Channels.newChannel(bytes));
            this.loader = new VectorLoader(staging);
        }

        /** The schema message. */
        public byte[] start() {
            try {
                writer.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return drain();
        }

        /** One record batch message. */
        public byte[] write(Batch batch) {
            VectorUnloader unloader = new VectorUnloader(batch.root());
            try (ArrowRecordBatch record = unloader.getRecordBatch()) {
                loader.load(record);
            }
            try {
                writer.writeBatch();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return drain();
        }

        /** The end-of-stream marker. */
        public byte[] end() {
            try {
                writer.end();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return drain();
        }

        private byte[] drain() {
            byte[] out = bytes.toByteArray();
            bytes.reset();
            return out;
        }

        @Override
        public void close() {
            writer.close();
            staging.close();
        }
    }

    /** Encodes batches (which stay owned by the caller) as one IPC stream. */
    public static byte[] encode(Schema schema, List<Batch> batches, BufferAllocator allocator) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (VectorSchemaRoot staging = VectorSchemaRoot.create(schema.toArrow(), allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(staging, null, Channels.newChannel(bytes))) {
            writer.start();
            VectorLoader loader = new VectorLoader(staging);
            for (Batch batch : batches) {
                VectorUnloader unloader = new VectorUnloader(batch.root());
                try (ArrowRecordBatch record = unloader.getRecordBatch()) {
                    loader.load(record);
                }
                writer.writeBatch();
            }
            writer.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Decodes an IPC stream into batches the caller owns. */
    public static List<Batch> decode(byte[] ipc, BufferAllocator allocator) {
        List<Batch> out = new ArrayList<>();
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            Schema schema = Schema.fromArrow(root.getSchema());
            while (reader.loadNextBatch()) {
                VectorUnloader unloader = new VectorUnloader(root);
                VectorSchemaRoot copy = VectorSchemaRoot.create(root.getSchema(), allocator);
                try (ArrowRecordBatch record = unloader.getRecordBatch()) {
                    new VectorLoader(copy).load(record);
                } catch (RuntimeException e) {
                    copy.close();
                    throw e;
                }
                out.add(new Batch(schema, copy));
            }
        } catch (IOException | RuntimeException e) {
            out.forEach(Batch::close);
            if (e instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw (RuntimeException) e;
        }
        return out;
    }

    /** The schema at the head of an IPC stream. */
    public static Schema schema(byte[] ipc, BufferAllocator allocator) {
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator)) {
            return Schema.fromArrow(reader.getVectorSchemaRoot().getSchema());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
