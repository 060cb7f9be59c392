package io.sluice.plan.exec;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A record batch as it moves between operators: Arrow vectors plus our schema. Whoever receives a
 * batch from {@link BatchStream#next()} owns it and must close it. Columns unpacked for kernels are
 * cached, so an expression that names a column twice reads it once.
 */
public final class Batch implements AutoCloseable {
    private final Schema schema;
    private final VectorSchemaRoot root;
    private final Col[] unpacked;

    public Batch(Schema schema, VectorSchemaRoot root) {
        this.schema = requireNonNull(schema, "schema is null");
        this.root = requireNonNull(root, "root is null");
        if (root.getFieldVectors().size() != schema.size()) {
            throw new IllegalArgumentException("root has " + root.getFieldVectors().size() + " vectors, schema "
                    + schema.size());
        }
        this.unpacked = new Col[schema.size()];
    }

    /** Packs columns into Arrow vectors allocated from {@code allocator}. */
    public static Batch of(Schema schema, Col[] columns, int rowCount, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(columns.length);
        try {
            for (int i = 0; i < columns.length; i++) {
                if (columns[i].length != rowCount) {
                    throw new IllegalArgumentException("column " + i + " has " + columns[i].length + " rows, not " + rowCount);
                }
                vectors.add(columns[i].write(schema.field(i).name(), allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        VectorSchemaRoot root = new VectorSchemaRoot(schema.toArrow().getFields(), vectors, rowCount);
        Batch batch = new Batch(schema, root);
        System.arraycopy(columns, 0, batch.unpacked, 0, columns.length);
        return batch;
    }

    /**
     * A batch over heap columns for evaluating expressions only: the columns are served from the
     * unpacked cache and the root's vectors stay empty (they allocate nothing), so building it costs
     * no Arrow memory and no copy. Never hand it to a consumer that reads {@link #root()}, such as
     * a shuffle or IPC writer. Closing it is still required and cheap.
     */
    public static Batch forEvaluation(Schema schema, Col[] columns, int rowCount, BufferAllocator allocator) {
        if (columns.length != schema.size()) {
            throw new IllegalArgumentException(columns.length + " columns for a schema of " + schema.size());
        }
        List<FieldVector> vectors = new ArrayList<>(columns.length);
        for (int i = 0; i < columns.length; i++) {
            if (columns[i].length != rowCount) {
                throw new IllegalArgumentException("column " + i + " has " + columns[i].length + " rows, not " + rowCount);
            }
            vectors.add(schema.field(i).toArrow().createVector(allocator));
        }
        VectorSchemaRoot root = new VectorSchemaRoot(schema.toArrow().getFields(), vectors, rowCount);
        Batch batch = new Batch(schema, root);
        System.arraycopy(columns, 0, batch.unpacked, 0, columns.length);
        return batch;
    }

    public Schema schema() {
        return schema;
    }

    public VectorSchemaRoot root() {
        return root;
    }

    public int rowCount() {
        return root.getRowCount();
    }

    public Col column(int index) {
        Col col = unpacked[index];
        if (col == null) {
            col = Col.read(root.getVector(index), schema.field(index).type());
            unpacked[index] = col;
        }
        return col;
    }

    public Col column(String name) {
        int index = schema.indexOf(name);
        if (index < 0) {
            throw new IllegalStateException("batch has no column '" + name + "': " + schema);
        }
        return column(index);
    }

    /** All columns unpacked. */
    public Col[] columns() {
        Col[] out = new Col[schema.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = column(i);
        }
        return out;
    }

    @Override
    public void close() {
        root.close();
    }
}
