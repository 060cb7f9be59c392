package io.sluice.plan.exec;

import io.sluice.plan.types.Schema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.VectorLoader;

/** Arrow IPC stream encoding of whole results, as the coordinator returns them to clients. */
public final class ArrowIpc {
    private ArrowIpc() {
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
