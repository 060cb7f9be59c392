package io.sluice.datasource.json;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.datasource.file.ColumnSelection;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Streams the records of one range of a JSON lines file, decoded with Jackson's streaming parser
 * straight into Arrow vectors: fields of unselected columns are skipped, not decoded. Blank lines
 * hold no record. A field name matches its column exactly, else case-insensitively when only one
 * column matches. A line that is not one JSON object, or a value that does not fit its column, is
 * handled by the table's mode ({@link JsonOptions.ParseMode}); a selected corrupt record column
 * holds the line of a record read in PERMISSIVE mode that had such a fault.
 */
final class JsonBatchStream implements BatchStream {
    /** Field names resolved to columns are remembered up to this many distinct names. */
    private static final int MAX_CACHED_NAMES = 10_000;
    private static final JsonColumn NO_COLUMN = new JsonColumn(new Field("-", DataType.NULL));

    private final JsonLines lines;
    private final ColumnSelection selection;
    private final JsonOptions.ParseMode mode;
    private final JsonColumn[] columns; // the selected columns read from the JSON fields
    private final int[] outputIndex; // position in the selection of each of 'columns'
    private final int corruptIndex; // position in the selection of the corrupt record column, or -1
    private final Map<String, JsonColumn> columnOfName = new HashMap<>();
    private final String corruptColumn;
    private final int batchSize;
    private final BufferAllocator allocator;
    private VarCharVector corrupt;
    private boolean done;
    private boolean closed;

    JsonBatchStream(JsonLines lines, ColumnSelection selection, JsonOptions options, int batchSize,
            BufferAllocator allocator) {
        this.lines = requireNonNull(lines, "lines is null");
        this.selection = requireNonNull(selection, "selection is null");
        this.mode = options.mode();
        this.corruptColumn = options.corruptRecordColumn();
        this.batchSize = batchSize;
        this.allocator = requireNonNull(allocator, "allocator is null");
        int corruptAt = -1;
        int n = 0;
        for (int i = 0; i < selection.size(); i++) {
            Field field = selection.schema().field(i);
            if (field.name().equals(options.corruptRecordColumn()) && field.type().equals(DataType.UTF8)) {
                corruptAt = i;
            } else {
                n++;
            }
        }
        this.corruptIndex = corruptAt;
        this.columns = new JsonColumn[n];
        this.outputIndex = new int[n];
        for (int i = 0, c = 0; i < selection.size(); i++) {
            if (i != corruptAt) {
                columns[c] = new JsonColumn(selection.schema().field(i));
                outputIndex[c++] = i;
            }
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
        int capacity = Math.min(batchSize, 1024);
        for (JsonColumn column : columns) {
            column.start(allocator, capacity);
        }
        if (corruptIndex >= 0) {
            corrupt = new VarCharVector(corruptColumn, allocator);
            corrupt.setInitialCapacity(capacity);
            corrupt.allocateNew();
        }
        int rows = 0;
        try {
            while (rows < batchSize) {
                if (!lines.next()) {
                    done = true;
                    break;
                }
                if (!lines.isBlank() && readLine(rows)) {
                    rows++;
                }
            }
        } catch (RuntimeException e) {
            done = true;
            releaseVectors();
            throw e;
        }
        if (rows == 0) {
            releaseVectors();
            return null;
        }
        FieldVector[] vectors = new FieldVector[selection.size()];
        Col[] heap = new Col[selection.size()];
        for (int c = 0; c < columns.length; c++) {
            FieldVector vector = columns[c].finish(rows);
            if (columns[c].type().isNested()) {
                // Nested columns travel as heap columns, as the Parquet reader hands them: the
                // shuffle's Arrow gather takes flat vectors only.
                try (vector) {
                    heap[outputIndex[c]] = Col.read(vector, columns[c].type());
                }
            } else {
                vectors[outputIndex[c]] = vector;
            }
        }
        if (corruptIndex >= 0) {
            corrupt.setValueCount(rows);
            vectors[corruptIndex] = corrupt;
            corrupt = null;
        }
        return Batch.of(selection.schema(), heap, vectors, rows, allocator);
    }

    /** Decodes the current line into {@code row}; false when the line is dropped (DROPMALFORMED). */
    private boolean readLine(int row) {
        boolean faulty = false;
        try (JsonParser parser = JsonSchemaInference.FACTORY.createParser(lines.bytes(), 0, lines.length())) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new JsonRowException("expected a JSON object, found " + JsonRowException.describe(parser));
            }
            int rowDepth = parser.getParsingContext().getNestingDepth();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                JsonColumn column = column(parser.currentName());
                parser.nextToken();
                if (column == null || column.hasValue(row)) {
                    parser.skipChildren();
                    continue;
                }
                try {
                    column.write(parser, row);
                } catch (JsonRowException e) {
                    switch (mode) {
                        case FAILFAST -> throw new SluiceException(lines.path() + ": line " + lines.lineNumber() + ", "
                                + e.getMessage() + " (the mode option PERMISSIVE or DROPMALFORMED reads past such values)");
                        case DROPMALFORMED -> {
                            return discard();
                        }
                        case PERMISSIVE -> {
                            column.writeNull(row);
                            skipToDepth(parser, rowDepth);
                            faulty = true;
                        }
                    }
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                throw new JsonRowException("unexpected text after the JSON object");
            }
        } catch (JsonRowException | IOException e) {
            switch (mode) {
                case FAILFAST -> throw JsonRowException.malformedLine(lines, e);
                case DROPMALFORMED -> {
                    return discard();
                }
                case PERMISSIVE -> {
                    for (JsonColumn column : columns) {
                        column.writeNull(row);
                    }
                    faulty = true;
                }
            }
        }
        for (JsonColumn column : columns) {
            column.finishRow(row);
        }
        if (corrupt != null) {
            if (faulty) {
                corrupt.setSafe(row, lines.bytes(), 0, lines.length());
            } else {
                corrupt.setNull(row);
            }
        }
        return true;
    }

    /**
     * Moves past the rest of a value that failed to decode, however deep inside it the failure was:
     * to its last token, in the row object's context.
     */
    private static void skipToDepth(JsonParser parser, int depth) throws IOException {
        while (parser.getParsingContext().getNestingDepth() > depth) {
            if (parser.nextToken() == null) {
                throw new JsonRowException("the line ends inside a value");
            }
        }
    }

    /** Drops the current line: what it wrote into its row is overwritten by the next line's. */
    private boolean discard() {
        for (JsonColumn column : columns) {
            column.discardRow();
        }
        return false;
    }

    /** The column a field name reads into, or null for a field no selected column reads. */
    private JsonColumn column(String name) {
        JsonColumn known = columnOfName.get(name);
        if (known == null) {
            known = resolve(name);
            if (columnOfName.size() < MAX_CACHED_NAMES) {
                columnOfName.put(name, known);
            }
        }
        return known == NO_COLUMN ? null : known;
    }

    private JsonColumn resolve(String name) {
        JsonColumn match = null;
        for (JsonColumn column : columns) {
            if (column.name().equals(name)) {
                return column;
            }
        }
        for (JsonColumn column : columns) {
            if (column.name().equalsIgnoreCase(name)) {
                if (match != null) {
                    return NO_COLUMN;
                }
                match = column;
            }
        }
        return match == null ? NO_COLUMN : match;
    }

    private void releaseVectors() {
        for (JsonColumn column : columns) {
            column.release();
        }
        if (corrupt != null) {
            corrupt.close();
            corrupt = null;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            releaseVectors();
            lines.close();
        }
    }
}
