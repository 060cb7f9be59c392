package io.sluice.datasource.csv;

import io.sluice.common.Closeables;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.BlockHosts;
import io.sluice.datasource.file.ColumnSelection;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.datasource.file.SourceFile;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.kernels.BatchStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.Path;

/**
 * CSV files, by default with a header line, comma separated, RFC 4180 quoting; an empty unquoted
 * field is NULL ({@link CsvOptions} lists the options that change this). Types are inferred from the
 * first {@value #SAMPLE_ROWS} data rows of the first file: BOOL, INT64, FLOAT64, DATE32 (yyyy-mm-dd
 * or the {@code dateFormat} option), else UTF8; a column with only NULLs is UTF8; with
 * {@code inferSchema 'false'} every column is UTF8. Names come from the header line, or are
 * {@code _c0, _c1, …} (Spark's) without one. Columns are matched by position; every file's header
 * must spell the table's names unless {@code enforceSchema} is true (the default for a declared
 * schema, whose names then stand). A blank line is skipped unless the table has a single column, where it
 * is a NULL.
 */
public final class CsvFormat implements FormatReader {
    static final int SAMPLE_ROWS = 1000;

    @Override
    public void checkOptions(Map<String, String> options) {
        CsvOptions.of(options);
    }

    @Override
    public Schema inferSchema(String location, Map<String, String> given) {
        CsvOptions options = CsvOptions.of(given);
        SourceFile first = SourceFiles.firstFile(location);
        Path path = new Path(first.path());
        try (CsvTokenizer tokenizer = CsvFile.open(path, first.length(), first.modificationTime(), options)) {
            List<String> names = options.header() ? CsvFile.readHeader(tokenizer, path) : null;
            DataType[] types = names == null ? null : new DataType[names.size()];
            CsvValues values = new CsvValues(options);
            int rows = 0;
            while (rows < SAMPLE_ROWS && tokenizer.next()) {
                if (names == null) {
                    names = positionalNames(tokenizer.fieldCount());
                    types = new DataType[names.size()];
                }
                int columns = names.size();
                if (columns > 1 && tokenizer.isBlankLine()) {
                    continue;
                }
                if (tokenizer.fieldCount() != columns) {
                    if (options.mode() == CsvOptions.Mode.FAILFAST) {
                        throw CsvFile.malformedRow(path, tokenizer.line(), columns, tokenizer.fieldCount());
                    }
                    continue;
                }
                if (!options.inferSchema()) {
                    break;
                }
                for (int i = 0; i < columns; i++) {
                    if (!tokenizer.isNull(i)) {
                        DataType seen = values.classify(tokenizer.chars(), tokenizer.start(i), tokenizer.end(i));
                        types[i] = widen(types[i], seen);
                    }
                }
                rows++;
            }
            if (names == null) {
                throw new SluiceException(path + ": empty CSV file, no row to find the columns from");
            }
            List<Field> fields = new ArrayList<>(names.size());
            for (int i = 0; i < names.size(); i++) {
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

    private static List<String> positionalNames(int columns) {
        List<String> names = new ArrayList<>(columns);
        for (int i = 0; i < columns; i++) {
            names.add("_c" + i);
        }
        return names;
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

    /** The whole file, one partition, as listing found it: nothing is asked of the file system again. */
    @Override
    public List<ScanPartition> partitions(SourceFile file, Map<String, String> options) {
        return List.of(new ScanPartition(file.path(), -1, List.of(), BlockHosts.of(new Path(file.path())).hosts())
                .withFile(file));
    }

    @Override
    public BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator, Map<String, String> options) {
        FormatReader.checkReadArguments(partition, allocator, batchSize);
        if (partition.rowGroup() >= 0) {
            throw new IllegalArgumentException("CSV partitions are whole files, not row groups: " + partition);
        }
        CsvOptions csv = CsvOptions.of(options);
        ColumnSelection selection = ColumnSelection.of(tableSchema, columns);
        Path path = new Path(partition.path());
        CsvTokenizer tokenizer = CsvFile.open(path, partition.fileLength(), partition.modificationTime(), csv);
        try {
            if (csv.header() && !csv.enforceSchema()) {
                checkHeader(path, CsvFile.readHeader(tokenizer, path), tableSchema);
            } else {
                CsvFile.skipHeader(tokenizer, path, csv);
            }
            return new CsvBatchStream(tokenizer, path, tableSchema, selection, batchSize, allocator, csv);
        } catch (IOException e) {
            Closeables.closeOnFailure(tokenizer, e);
            throw new SluiceException("cannot read CSV file " + path + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            Closeables.closeOnFailure(tokenizer, e);
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
                    + tableSchema.names() + " (option enforceSchema 'true' reads the columns by position regardless)");
        }
    }

    @Override
    public String toString() {
        return "CSV";
    }
}
