package io.sluice.datasource.csv;

import static java.util.Objects.requireNonNull;

import io.sluice.common.Closeables;
import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.ColumnSelection;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.hadoop.fs.Path;

/**
 * Streams the data rows of one CSV file whose header was already read. Only the selected columns
 * are parsed; every row is still checked for the table's number of fields. A row with the wrong
 * number of fields or a selected value that does not parse fails the stream, becomes NULLs or is
 * skipped, as the {@code mode} option says (so under {@code DROPMALFORMED}, as in Spark, a bad
 * value in a column not selected does not drop its row). Values are parsed straight into Arrow
 * vectors from the task's allocator ({@link CsvColumnBuilder}); closing the stream frees a batch
 * left half built.
 */
final class CsvBatchStream implements BatchStream {
    private final CsvTokenizer tokenizer;
    private final Path path;
    private final String file;
    private final int tableColumns;
    private final ColumnSelection selection;
    private final CsvColumnBuilder[] builders;
    private final int batchSize;
    private final CsvOptions.Mode mode;
    private boolean done;
    private boolean closed;

    CsvBatchStream(CsvTokenizer tokenizer, Path path, Schema tableSchema, ColumnSelection selection, int batchSize,
            BufferAllocator allocator, CsvOptions options) {
        this.tokenizer = requireNonNull(tokenizer, "tokenizer is null");
        this.path = requireNonNull(path, "path is null");
        this.file = path.toString();
        this.tableColumns = tableSchema.size();
        this.selection = requireNonNull(selection, "selection is null");
        this.batchSize = batchSize;
        requireNonNull(allocator, "allocator is null");
        this.mode = options.mode();
        this.builders = new CsvColumnBuilder[selection.size()];
        CsvValues values = new CsvValues(options);
        for (int i = 0; i < builders.length; i++) {
            Field field = selection.schema().field(i);
            builders[i] = new CsvColumnBuilder(field.name(), field.type(), batchSize, values, allocator);
        }
    }

    @Override
    public Batch next() {
        if (closed) {
            throw new IllegalStateException("stream is closed");
        }
        if (done) {
            return null;
        }
        int rows = 0;
        try {
            while (rows < batchSize) {
                if (!tokenizer.next()) {
                    done = true;
                    break;
                }
                if (tableColumns > 1 && tokenizer.isBlankLine()) {
                    continue;
                }
                if (tokenizer.fieldCount() != tableColumns && mode != CsvOptions.Mode.PERMISSIVE) {
                    if (mode == CsvOptions.Mode.DROPMALFORMED) {
                        continue;
                    }
                    throw CsvFile.malformedRow(path, tokenizer.line(), tableColumns, tokenizer.fieldCount());
                }
                if (appendRow(rows)) {
                    rows++;
                }
            }
        } catch (IOException e) {
            done = true;
            throw new SluiceException("cannot read CSV file " + path + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            done = true;
            throw e;
        }
        if (rows == 0) {
            return null;
        }
        FieldVector[] vectors = new FieldVector[builders.length];
        try {
            for (int i = 0; i < builders.length; i++) {
                vectors[i] = builders[i].build();
            }
        } catch (RuntimeException | Error e) {
            done = true;
            for (FieldVector built : vectors) {
                if (built != null) {
                    built.close();
                }
            }
            throw e;
        }
        return Batch.ofVectors(selection.schema(), vectors, rows);
    }

    /** Appends the current record's selected fields; false if the mode dropped it. */
    private boolean appendRow(int rows) {
        for (int i = 0; i < builders.length; i++) {
            int field = selection.tableIndex(i);
            if (!builders[i].append(tokenizer, field)) {
                switch (mode) {
                    case PERMISSIVE -> builders[i].appendNull();
                    case DROPMALFORMED -> {
                        for (int j = 0; j < i; j++) {
                            builders[j].truncate(rows);
                        }
                        return false;
                    }
                    case FAILFAST -> throw builders[i].badValue(tokenizer, field, file);
                }
            }
        }
        return true;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                for (CsvColumnBuilder builder : builders) {
                    builder.close();
                }
            } finally {
                Closeables.closeLogging(tokenizer, path);
            }
        }
    }
}
