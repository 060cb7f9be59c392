package io.sluice.datasource.csv;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.ColumnSelection;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.source.FormatOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.Path;

/**
 * CSV files with a header line, comma separated, RFC 4180 quoting; an empty unquoted field is NULL.
 * Types are inferred from the header and the first {@value #SAMPLE_ROWS} data rows of the first
 * file: BOOL, INT64, FLOAT64, DATE32 (yyyy-mm-dd), else UTF8; a column with only NULLs is UTF8.
 * Every file of a table must have the same header. A blank line is skipped unless the table has a
 * single column, where it is a NULL.
 */
public final class CsvFormat implements FormatReader {
    static final int SAMPLE_ROWS = 1000;

    @Override
    public void checkOptions(Map<String, String> options) {
        FormatOptions.requireKnown("CSV", options, List.of());
    }

    @Override
    public Schema inferSchema(String location, Map<String, String> options) {
        Path path = SourceFiles.first(location);
        try (CsvTokenizer tokenizer = CsvFile.open(path)) {
            List<String> names = CsvFile.readHeader(tokenizer, path);
            int columns = names.size();
            DataType[] types = new DataType[columns];
            CsvValues values = new CsvValues();
            int rows = 0;
            while (rows < SAMPLE_ROWS && tokenizer.next()) {
                if (columns > 1 && tokenizer.isBlankLine()) {
                    continue;
                }
                if (tokenizer.fieldCount() != columns) {
                    throw CsvFile.malformedRow(path, tokenizer.line(), columns, tokenizer.fieldCount());
                }
                for (int i = 0; i < columns; i++) {
                    if (!tokenizer.isNull(i)) {
                        DataType seen = values.classify(tokenizer.chars(), tokenizer.start(i), tokenizer.end(i));
                        types[i] = widen(types[i], seen);
                    }
                }
                rows++;
            }
            List<Field> fields = new ArrayList<>(columns);
            for (int i = 0; i < columns; i++) {
                fields.add(new Field(names.get(i), types[i] == null ? DataType.UTF8 : types[i]));
            }
            try {
                return new Schema(fields);
            } catch (SluiceException e) {
                throw new SluiceException(path + ": " + e.getMessage(), e);
            }
        } catch (IOException e) {
            throw new SluiceException("cannot read CSV file " + path + ": " + e.getMessage(), e);
        }
    }

    /** The narrowest type holding values of both types; null means no value seen yet. */
    static DataType widen(DataType current, DataType seen) {
        if (current == null || current.equals(seen)) {
            return seen;
        }
        if ((current.equals(DataType.INT64) && seen.equals(DataType.FLOAT64))
                || (current.equals(DataType.FLOAT64) && seen.equals(DataType.INT64))) {
            return DataType.FLOAT64;
        }
        return DataType.UTF8;
    }

    @Override
    public List<ScanPartition> partitions(String location, Map<String, String> options) {
        List<ScanPartition> partitions = new ArrayList<>();
        for (Path file : SourceFiles.list(location)) {
            partitions.add(new ScanPartition(file.toString(), -1));
        }
        return partitions;
    }

    @Override
    public BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator, Map<String, String> options) {
        requireNonNull(partition, "partition is null");
        requireNonNull(allocator, "allocator is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
        if (partition.rowGroup() >= 0) {
            throw new IllegalArgumentException("CSV partitions are whole files, not row groups: " + partition);
        }
        ColumnSelection selection = ColumnSelection.of(tableSchema, columns);
        Path path = new Path(partition.path());
        CsvTokenizer tokenizer = CsvFile.open(path);
        try {
            List<String> header = CsvFile.readHeader(tokenizer, path);
            checkHeader(path, header, tableSchema);
            return new CsvBatchStream(tokenizer, path, tableSchema, selection, batchSize, allocator);
        } catch (IOException e) {
            CsvFile.closeQuietly(tokenizer);
            throw new SluiceException("cannot read CSV file " + path + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            CsvFile.closeQuietly(tokenizer);
            throw e;
        }
    }

    /** Columns are matched by position, so a file whose header differs from the table's is refused. */
    private static void checkHeader(Path path, List<String> header, Schema tableSchema) {
        boolean same = header.size() == tableSchema.size();
        for (int i = 0; same && i < header.size(); i++) {
            same = header.get(i).equalsIgnoreCase(tableSchema.field(i).name());
        }
        if (!same) {
            throw new SluiceException(path + ": line 1: header " + header + " does not match the table's columns "
                    + tableSchema.names());
        }
    }

    @Override
    public String toString() {
        return "CSV";
    }
}
