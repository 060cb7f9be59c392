package io.sluice.kernels;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A record batch as it moves between operators: columns plus our schema. Whoever receives a batch
 * from {@link BatchStream#next()} owns it and must close it.
 *
 * <p>Each column is held in one or both of two forms, each made on first use and then kept: an
 * Arrow vector ({@link #arrowVector}) and an unpacked heap column ({@link #column}). The form is
 * per column: a Parquet scan hands its string columns as Arrow UTF-8 vectors (the bytes of the
 * file, no {@code String} per row) and its numeric columns as fixed-width vectors (the columns its
 * page decoder reads; parquet-mr's general decoder, for other encodings and types, yields heap
 * columns), so kernels that
 * work on UTF-8 bytes ({@code LIKE}, string comparisons, group and join keys) or on numbers
 * ({@link InPlaceKernels}, the aggregate, the join probe) read them in place, and an operator that
 * still needs a heap column unpacks it on its first {@link #column} call. Operators mix forms in
 * one batch ({@link #of(Schema, Col[], FieldVector[], int, BufferAllocator)}): a computed column is
 * a heap {@code Col} next to vectors passed through. A batch read from Arrow (IPC, a
 * shuffle fetch) has every column as a vector; a batch an operator builds from heap columns
 * ({@link #of(Schema, Col[], int, BufferAllocator)}) writes the vectors it lacks only when a
 * consumer asks for the {@link #root()} (a shuffle or IPC writer). Operators that pass batches to
 * each other in one task therefore never pay for an Arrow copy nobody reads, nor for a string
 * decode nobody reads.
 *
 * <p>The batch owns its vectors: {@link #close()} releases them (through the root once it is made).
 */
public final class Batch implements AutoCloseable {
    private final Schema schema;
    private final int rowCount;
    private final Col[] unpacked;
    private final FieldVector[] vectors; // per column, null where the column is held only as a Col
    private InPlaceValues[] inPlace; // per column, the view of its vector once asked for (made lazily)
    private final BufferAllocator allocator; // for writing the missing vectors of the root; null when none is missing
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
        this.vectors = root.getFieldVectors().toArray(new FieldVector[0]);
        this.allocator = null;
    }

    private Batch(Schema schema, Col[] columns, FieldVector[] vectors, int rowCount, BufferAllocator allocator) {
        this.schema = requireNonNull(schema, "schema is null");
        if (columns.length != schema.size() || vectors.length != schema.size()) {
            throw new IllegalArgumentException(columns.length + " columns and " + vectors.length
                    + " vectors for a schema of " + schema.size());
        }
        boolean missing = false;
        for (int i = 0; i < columns.length; i++) {
            if (columns[i] == null && vectors[i] == null) {
                throw new IllegalArgumentException("column " + i + " has neither a Col nor a vector");
            }
            if (columns[i] != null && columns[i].length != rowCount) {
                throw new IllegalArgumentException("column " + i + " has " + columns[i].length + " rows, not " + rowCount);
            }
            if (vectors[i] != null && vectors[i].getValueCount() != rowCount) {
                throw new IllegalArgumentException("vector " + i + " has " + vectors[i].getValueCount() + " rows, not "
                        + rowCount);
            }
            missing |= vectors[i] == null;
        }
        if (missing) {
            requireNonNull(allocator, "allocator is null");
        }
        this.allocator = allocator;
        this.rowCount = rowCount;
        this.unpacked = columns.clone();
        this.vectors = vectors.clone();
    }

    /**
     * A batch of heap columns. Its Arrow vectors are allocated from {@code allocator} when
     * {@link #root()} is first called, so the allocator must outlive that call.
     */
    public static Batch of(Schema schema, Col[] columns, int rowCount, BufferAllocator allocator) {
        return new Batch(schema, columns, new FieldVector[columns.length], rowCount, allocator);
    }

    /**
     * A batch whose column {@code i} is {@code columns[i]}, {@code vectors[i]} or both (the same
     * values); at least one of each pair is non-null, every vector has {@code rowCount} values. The
     * batch takes ownership of the vectors, also when this throws (they are closed then). The
     * vectors a heap-only column lacks are written from {@code allocator} when {@link #root()} is
     * first called (it may be null when every column has a vector).
     */
    public static Batch of(Schema schema, Col[] columns, FieldVector[] vectors, int rowCount, BufferAllocator allocator) {
        try {
            return new Batch(schema, columns, vectors, rowCount, allocator);
        } catch (RuntimeException e) {
            closeAll(Arrays.asList(vectors));
            throw e;
        }
    }

    /**
     * A batch whose every column is an Arrow vector ({@code rowCount} values each), as a scan that
     * decodes straight into Arrow makes it. The batch takes ownership of the vectors, also when this
     * throws (they are closed then).
     */
    public static Batch ofVectors(Schema schema, FieldVector[] vectors, int rowCount) {
        return of(schema, new Col[vectors.length], vectors, rowCount, null);
    }

    public Schema schema() {
        return schema;
    }

    /**
     * The batch as Arrow vectors, the missing ones written from the heap columns on first call; the
     * vectors the batch already holds go into the root as they are. Owned by the batch.
     */
    public VectorSchemaRoot root() {
        if (closed) {
            throw new IllegalStateException("batch is closed");
        }
        if (root == null) {
            root = assemble();
        }
        return root;
    }

    private VectorSchemaRoot assemble() {
        List<FieldVector> written = new ArrayList<>();
        try {
            for (int i = 0; i < vectors.length; i++) {
                if (vectors[i] == null) {
                    FieldVector v = unpacked[i].write(schema.field(i).name(), allocator);
                    written.add(v);
                    vectors[i] = v;
                }
            }
        } catch (RuntimeException | Error e) {
            for (FieldVector v : written) {
                for (int i = 0; i < vectors.length; i++) {
                    if (vectors[i] == v) {
                        vectors[i] = null;
                    }
                }
                v.close();
            }
            throw e;
        }
        return new VectorSchemaRoot(schema.toArrow().getFields(), Arrays.asList(vectors.clone()), rowCount);
    }

    public int rowCount() {
        return rowCount;
    }

    /**
     * The Arrow vector of a column when the batch holds that column as Arrow (it was read from
     * Arrow, a scan decoded it so, or {@link #root()} was called), else null: for kernels that read
     * Arrow buffers in place, without writing the Arrow form of a heap column. Owned by the batch.
     */
    public FieldVector arrowVector(int index) {
        return index < 0 ? null : vectors[index];
    }

    /**
     * Column {@code index}'s fixed-width vector read in place ({@link InPlaceValues#of}), or null
     * when the batch holds no vector of it that is read so, or the vector does not have exactly the
     * batch's rows. Made once per column (the vector's NULL count is counted once), valid while the
     * batch is open.
     */
    public InPlaceValues inPlace(int index) {
        if (inPlace == null) {
            inPlace = new InPlaceValues[vectors.length];
        }
        InPlaceValues values = inPlace[index];
        if (values == null) {
            values = InPlaceValues.of(vectors[index], schema.field(index).type());
            if (values == null || values.rows != rowCount) {
                return null;
            }
            inPlace[index] = values;
        }
        return values;
    }

    /**
     * Whether the batch holds any column as an Arrow vector (see {@link #arrowVector}): an operator
     * that copies rows then prefers to copy them into vectors, so those columns are not unpacked (no
     * string decoded) just to be copied.
     */
    public boolean hasArrow() {
        for (FieldVector v : vectors) {
            if (v != null) {
                return true;
            }
        }
        return false;
    }

    /** Whether column {@code index} is already unpacked on the heap (so {@link #column} costs nothing). */
    public boolean hasColumn(int index) {
        return unpacked[index] != null;
    }

    public Col column(int index) {
        Col col = unpacked[index];
        if (col == null) {
            col = Col.read(vectors[index], schema.field(index).type());
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

    /**
     * Rows {@code selected[0..count)} as a new batch of the same schema (from {@code allocator}),
     * each column in the forms it is held: a vector is gathered into a new vector (no string is
     * decoded just to be copied), a heap column into a new heap column. A string column held both
     * ways keeps both (the bytes for the byte kernels, the strings so they are not decoded again); a
     * fixed-width one only its heap form, which is what its kernels read. This batch is not changed.
     */
    public Batch gather(int[] selected, int count, BufferAllocator allocator) {
        Col[] cols = new Col[vectors.length];
        FieldVector[] out = new FieldVector[vectors.length];
        try {
            for (int i = 0; i < vectors.length; i++) {
                if (unpacked[i] != null) {
                    cols[i] = unpacked[i].gather(selected, count);
                }
                if (vectors[i] != null && (cols[i] == null || schema.field(i).type().kind() == DataType.Kind.UTF8)) {
                    out[i] = ArrowKernels.gather(vectors[i], selected, count, allocator);
                }
            }
        } catch (RuntimeException | Error e) {
            closeAll(Arrays.asList(out));
            throw e;
        }
        return of(schema, cols, out, count, allocator);
    }

    private static void closeAll(List<FieldVector> vectors) {
        for (FieldVector v : vectors) {
            if (v != null) {
                v.close();
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (root != null) {
            root.close();
        } else {
            closeAll(Arrays.asList(vectors));
        }
    }
}
