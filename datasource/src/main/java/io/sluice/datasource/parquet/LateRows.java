package io.sluice.datasource.parquet;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.operators.ScanRowFilter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The row test of a late read ({@link ParquetBatchStream}): the columns it reads, decoded first,
 * and the rows of each batch it selects, which are all the other columns are then decoded for.
 * Not thread-safe: one per stream.
 */
final class LateRows {
    /** Rows tested before {@link #pays} may give up. */
    static final int SAMPLE_ROWS = 16_384;

    private final int[] tested;
    private final boolean[] isTested;
    private final Schema testedSchema;
    private final ScanRowFilter.Selector selector;
    /** Whether every tested column is fixed-width (no strings, no nested values): a cheap test. */
    private final boolean fixedWidth;
    private int[] selected = new int[0];
    private long testedRows;
    private long passedRows;

    private LateRows(int[] tested, Schema schema, ScanRowFilter filter, BufferAllocator allocator) {
        this.tested = tested;
        this.isTested = new boolean[schema.size()];
        List<Field> fields = new ArrayList<>(tested.length);
        for (int column : tested) {
            isTested[column] = true;
            fields.add(schema.field(column));
        }
        this.testedSchema = new Schema(fields);
        this.fixedWidth = fields.stream().allMatch(f -> f.type().kind() != DataType.Kind.UTF8 && !f.type().isNested());
        this.selector = filter.bind(testedSchema, allocator);
    }

    /**
     * The late read of a stream of {@code schema} under {@code filter}, testing in {@code allocator}
     * (the stream's); null when there is no filter, or when it reads a column the stream does not
     * hold. A test reading every column decodes nothing late, but still pays while it drops rows: the
     * batch is compacted once, here, rather than by each filter above (Q4's date comparison and
     * runtime filter on lineitem keep 2.5% of its rows, which one gather then copies).
     */
    static LateRows of(Schema schema, ScanRowFilter filter, BufferAllocator allocator) {
        if (filter == null) {
            return null;
        }
        List<String> columns = filter.columns();
        int[] tested = new int[columns.size()];
        for (int i = 0; i < tested.length; i++) {
            tested[i] = schema.indexOf(columns.get(i));
            if (tested[i] < 0) {
                return null;
            }
        }
        return tested.length == 0 ? null : new LateRows(tested, schema, filter, allocator);
    }

    /**
     * Whether reading late still pays, once {@value #SAMPLE_ROWS} rows or more were tested. A test of
     * fixed-width columns (numbers, dates) is cheap to repeat above: a few rejected rows are enough
     * to keep it, as the scan passes over them while decoding where the filter above would copy every
     * column of each batch to drop them (TPC-H Q1 keeps 98%: about 9% less CPU over 12 alternated
     * pairs); it stops only when every row passed. A test of strings (a LIKE) costs more to run twice
     * than that copy: it stops once more than 90% pass (TPC-H Q13's comment test keeps 99%).
     */
    boolean pays() {
        if (testedRows < SAMPLE_ROWS) {
            return true;
        }
        return fixedWidth ? passedRows < testedRows : passedRows * 10 <= testedRows * 9;
    }

    /** Whether the test reads column {@code column} of the stream. */
    boolean tested(int column) {
        return isTested[column];
    }

    /** The rows the last {@link #select} kept, ascending, in its first slots. */
    int[] selected() {
        return selected;
    }

    /** Decodes the next {@code n} values of the tested columns into {@code cols} or {@code vectors}, as {@link ColumnChunkDecoder#decode}. */
    void decodeTested(ColumnChunkDecoder[] decoders, int n, BufferAllocator allocator, Col[] cols, FieldVector[] vectors) {
        for (int column : tested) {
            decoders[column].decode(n, allocator, cols, vectors, column);
        }
    }

    /**
     * Tests the {@code n} rows of the tested columns just decoded and returns how many pass; the
     * tested columns then hold only those rows (none when none passes; what they held when all do).
     */
    int select(int n, BufferAllocator allocator, Col[] cols, FieldVector[] vectors) {
        Col[] testedCols = new Col[tested.length];
        FieldVector[] testedVectors = new FieldVector[tested.length];
        for (int j = 0; j < tested.length; j++) {
            testedCols[j] = cols[tested[j]];
            testedVectors[j] = vectors[tested[j]];
            cols[tested[j]] = null;
            vectors[tested[j]] = null; // the batch below owns them now
        }
        if (selected.length < n) {
            selected = new int[n];
        }
        try (Batch batch = Batch.of(testedSchema, testedCols, testedVectors, n, allocator)) {
            int count = selector.select(batch, selected);
            testedRows += n;
            passedRows += count;
            if (count == 0) {
                return 0;
            }
            if (count == n) {
                take(batch, allocator, cols, vectors);
            } else {
                try (Batch kept = batch.gather(selected, count, allocator)) {
                    take(kept, allocator, cols, vectors);
                }
            }
            return count;
        }
    }

    /** Moves the tested columns of {@code batch} into {@code cols} and {@code vectors} (vectors by a transfer: the batch keeps empty ones). */
    private void take(Batch batch, BufferAllocator allocator, Col[] cols, FieldVector[] vectors) {
        for (int j = 0; j < tested.length; j++) {
            cols[tested[j]] = batch.hasColumn(j) ? batch.column(j) : null;
            FieldVector vector = batch.arrowVector(j);
            if (vector != null) {
                TransferPair transfer = vector.getTransferPair(allocator);
                transfer.transfer();
                vectors[tested[j]] = (FieldVector) transfer.getTo();
            }
        }
    }

    @Override
    public String toString() {
        return "late rows tested on " + testedSchema.names();
    }
}
