package io.sluice.datasource.sink;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Writes batches to one Arrow IPC file (the random-access "Feather v2" form: magic, schema, record
 * batches, footer), which Arrow readers in every language open. Each batch is copied into one
 * staging root of {@code allocator}, so the caller keeps owning its batches.
 */
final class ArrowPartitionWriter implements PartitionFileWriter {
    private final OutputStream stream;
    private final VectorSchemaRoot staging;
    private final ArrowFileWriter writer;
    private final VectorLoader loader;

    ArrowPartitionWriter(Schema schema, OutputStream stream, BufferAllocator allocator) throws IOException {
        this.stream = stream;
        this.staging = VectorSchemaRoot.create(schema.toArrow(), allocator);
        this.writer = new ArrowFileWriter(staging, null, Channels.newChannel(stream));
        this.loader = new VectorLoader(staging);
        writer.start();
    }

    @Override
    public void write(Batch batch) throws IOException {
        try (ArrowRecordBatch record = new VectorUnloader(batch.root()).getRecordBatch()) {
            loader.load(record);
        }
        writer.writeBatch();
    }

    @Override
    public void close() throws IOException {
        try (stream; staging; writer) {
            writer.end();
        }
    }
}
