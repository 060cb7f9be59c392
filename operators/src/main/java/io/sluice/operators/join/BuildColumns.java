package io.sluice.operators.join;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowGather;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.operators.memory.HeapSize;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The payload columns of a hash join's build side, held on the heap in the form output rows are
 * gathered from: fixed-width columns as the primitive arrays of a {@link Col}, string columns as
 * their UTF-8 bytes ({@link Utf8Bytes}: one byte array and offsets, copied in bulk from the Arrow
 * vector). An output batch gathers its build rows from here straight into Arrow vectors ({@link
 * #gather}), copying each string's bytes once; no string is decoded, and no {@code String} per
 * build row burdens the heap or the garbage collector. Paths that need heap columns (a residual
 * filter, an outer join's unmatched rows, a spill) decode only the rows they gather ({@link
 * #gatherCol}).
 */
final class BuildColumns {
    private final Schema schema;
    private final Col[] fixed; // null at a string column
    private final Utf8Bytes[] strings; // null at a fixed-width column
    private final int rows;

    private BuildColumns(Schema schema, Col[] fixed, Utf8Bytes[] strings, int rows) {
        this.schema = schema;
        this.fixed = fixed;
        this.strings = strings;
        this.rows = rows;
    }

    /** The columns of one batch: string columns read as bytes from its Arrow vectors when it has them. */
    static BuildColumns of(Batch batch) {
        Schema schema = batch.schema();
        int n = schema.size();
        Col[] fixed = new Col[n];
        Utf8Bytes[] strings = new Utf8Bytes[n];
        for (int c = 0; c < n; c++) {
            if (schema.field(c).type().kind() == DataType.Kind.UTF8) {
                FieldVector vector = batch.arrowVector(c);
                strings[c] = vector != null ? ArrowGather.utf8(vector, null) : ArrowGather.utf8(batch.column(c));
            } else {
                fixed[c] = batch.column(c);
            }
        }
        return new BuildColumns(schema, fixed, strings, batch.rowCount());
    }

    /** No rows of {@code schema}. */
    static BuildColumns empty(Schema schema) {
        Col[] fixed = new Col[schema.size()];
        Utf8Bytes[] strings = new Utf8Bytes[schema.size()];
        for (int c = 0; c < fixed.length; c++) {
            DataType type = schema.field(c).type();
            if (type.kind() == DataType.Kind.UTF8) {
                strings[c] = new Utf8Bytes(new byte[0], new int[1], null, 0);
            } else {
                fixed[c] = Col.allocate(type, 0, false);
            }
        }
        return new BuildColumns(schema, fixed, strings, 0);
    }

    /** The chunks' rows one after another. */
    static BuildColumns concat(Schema schema, List<BuildColumns> chunks) {
        if (chunks.isEmpty()) {
            return empty(schema);
        }
        if (chunks.size() == 1) {
            return chunks.get(0);
        }
        int n = schema.size();
        Col[] fixed = new Col[n];
        Utf8Bytes[] strings = new Utf8Bytes[n];
        int rows = 0;
        for (BuildColumns chunk : chunks) {
            rows = Math.addExact(rows, chunk.rows);
        }
        for (int c = 0; c < n; c++) {
            if (chunks.get(0).strings[c] != null) {
                List<Utf8Bytes> parts = new ArrayList<>(chunks.size());
                for (BuildColumns chunk : chunks) {
                    parts.add(chunk.strings[c]);
                }
                strings[c] = ArrowGather.concat(parts);
            } else {
                List<Col> parts = new ArrayList<>(chunks.size());
                for (BuildColumns chunk : chunks) {
                    parts.add(chunk.fixed[c]);
                }
                fixed[c] = Col.concat(schema.field(c).type(), parts);
            }
        }
        return new BuildColumns(schema, fixed, strings, rows);
    }

    int rows() {
        return rows;
    }

    int width() {
        return fixed.length;
    }

    /** Estimated heap bytes of the held columns. */
    long heapBytes() {
        long bytes = HeapSize.references(2 * fixed.length);
        for (int c = 0; c < fixed.length; c++) {
            if (fixed[c] != null) {
                bytes += HeapSize.of(fixed[c]);
            } else {
                Utf8Bytes s = strings[c];
                bytes += HeapSize.COL_OBJECT + HeapSize.booleans(s.data().length) + HeapSize.ints(s.offsets().length)
                        + (s.nulls() == null ? 0 : HeapSize.booleans(s.nulls().length));
            }
        }
        return bytes;
    }

    /** Whether column {@code c} is held as UTF-8 bytes (a string column), so {@link #gather} copies bytes, no {@code String}. */
    boolean holdsBytes(int c) {
        return strings[c] != null;
    }

    /** Rows {@code rows[0..count)} of column {@code c} as a new Arrow vector of output field {@code field}. */
    FieldVector gather(int c, int[] rows, int count, io.sluice.common.types.Field field, BufferAllocator allocator) {
        return fixed[c] != null
                ? ArrowGather.gather(fixed[c], rows, count, field, allocator)
                : ArrowGather.gather(strings[c], rows, count, field, allocator);
    }

    /** Rows {@code rows[0..count)} of column {@code c} on the heap; a negative index is NULL. */
    Col gatherCol(int c, int[] rows, int count) {
        return fixed[c] != null ? fixed[c].gatherOrNull(rows, count) : ArrowGather.decode(strings[c], rows, count);
    }

    /** Rows {@code rows[0..count)} of every column on the heap; a negative index is NULL. */
    Col[] gatherCols(int[] rows, int count) {
        Col[] out = new Col[fixed.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = gatherCol(c, rows, count);
        }
        return out;
    }

    /** Every row as heap columns (strings decoded): for writing the rows to a spill file. */
    Col[] toCols() {
        int[] all = new int[rows];
        for (int r = 0; r < rows; r++) {
            all[r] = r;
        }
        return gatherCols(all, rows);
    }

    Schema schema() {
        return schema;
    }
}
