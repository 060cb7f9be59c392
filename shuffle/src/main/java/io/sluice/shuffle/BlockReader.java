package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.types.Schema;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * Decodes one fetched shuffle block (an Arrow IPC stream) into {@link Batch}es. Each batch gets
 * its own vectors, moved out of the reader's reused root, so it outlives the reader and belongs to
 * the caller. Closing releases the reader's memory.
 */
final class BlockReader implements AutoCloseable {
    private final Schema schema;
    private final String block;
    private final ArrowStreamReader reader;
    private final BufferAllocator allocator;
    private VectorSchemaRoot root;

    BlockReader(byte[] bytes, Schema schema, BufferAllocator allocator, String block) {
        this.schema = requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.block = requireNonNull(block, "block is null");
        this.reader = new ArrowStreamReader(new ByteArrayInputStream(bytes), allocator);
    }

    /** The next non-empty batch, or null at the end of the block. */
    Batch next() {
        try {
            if (root == null) {
                root = reader.getVectorSchemaRoot();
                Schema actual = Schema.fromArrow(root.getSchema());
                if (!sameColumns(actual)) {
                    throw new IllegalStateException("shuffle block " + block + " has schema " + actual + ", expected "
                            + schema);
                }
            }
            while (reader.loadNextBatch()) {
                if (root.getRowCount() > 0) {
                    return detach();
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode shuffle block " + block, e);
        }
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

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close reader of shuffle block " + block, e);
        }
    }
}
