package io.sluice.plan.exec;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A record batch as it moves between operators: columns plus our schema. Whoever receives a batch
 * from {@link BatchStream#next()} owns it and must close it.
 *
 * <p>A batch has two forms, each made on first use and then kept: Arrow vectors ({@link #root()})
 * and unpacked heap columns ({@link #column}). A batch read from Arrow (a scan of IPC, a shuffle
 * fetch) unpacks a column when a kernel first asks for it; a batch an operator builds from heap
 * columns ({@link #of}) writes Arrow vectors only when a consumer asks for the root (a shuffle or
 * IPC writer). Operators that pass batches to each other in one task therefore never pay for an
 * Arrow copy nobody reads.
 */
public final class Batch implements AutoCloseable {
    private final Schema schema;
    private final int rowCount;
    private final Col[] unpacked;
    private final BufferAllocator allocator; // for writing the root of a batch built from columns
    private VectorSchemaRoot root;
    private boolean closed;

    public Batch(Schema schema, VectorSchemaRoot root) {
        this.schema = requireNonNull(schema, "schema is null");
        this.root = requireNonNull(root, "root is null");
        if (root.getFieldVectors().size() != schema.size()) {
            throw new IllegalArgumentException("root has " + root.getFieldVectors().size() + " vectors, schema "
                    + schema.size());
        }
        this.rowCount = root.getRowCount();
        this.unpacked = new Col[schema.size()];
        this.allocator = null;
    }

    private Batch(Schema schema, Col[] columns, int rowCount, BufferAllocator allocator) {
        this.schema = requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (columns.length != schema.size()) {
            throw new IllegalArgumentException(columns.length + " columns for a schema of " + schema.size());
        }
        for (int i = 0; i < columns.length; i++) {
            if (columns[i].length != rowCount) {
                throw new IllegalArgumentException("column " + i + " has " + columns[i].length + " rows, not " + rowCount);
            }
        }
        this.rowCount = rowCount;
        this.unpacked = columns.clone();
    }

    /**
     * A batch of heap columns. Its Arrow vectors are allocated from {@code allocator} when
     * {@link #root()} is first called, so the allocator must outlive that call.
     */
    public static Batch of(Schema schema, Col[] columns, int rowCount, BufferAllocator allocator) {
        return new Batch(schema, columns, rowCount, allocator);
    }

    public Schema schema() {
        return schema;
    }

    /** The batch as Arrow vectors, written from its heap columns on first call. Owned by the batch. */
    public VectorSchemaRoot root() {
        if (closed) {
            throw new IllegalStateException("batch is closed");
        }
        if (root == null) {
            root = write();
        }
        return root;
    }

    private VectorSchemaRoot write() {
        List<FieldVector> vectors = new ArrayList<>(unpacked.length);
        try {
            for (int i = 0; i < unpacked.length; i++) {
                vectors.add(unpacked[i].write(schema.field(i).name(), allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(schema.toArrow().getFields(), vectors, rowCount);
    }

    public int rowCount() {
        return rowCount;
    }

    /**
     * The Arrow vector of a column when the batch already has its Arrow form (it was read from
     * Arrow, or {@link #root()} was called), else null: for kernels that read Arrow buffers in
     * place, without making the Arrow form of a batch built from heap columns.
     */
    public FieldVector arrowVector(int index) {
        return root == null || index < 0 ? null : root.getVector(index);
    }

    /** Whether the batch has its Arrow form already (see {@link #arrowVector}). */
    public boolean hasArrow() {
        return root != null;
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
        closed = true;
        if (root != null) {
            root.close();
        }
    }
}
