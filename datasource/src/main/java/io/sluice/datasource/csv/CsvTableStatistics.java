package io.sluice.datasource.csv;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.SourceFile;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Table statistics for CSV files without reading them whole: the row count is the files' total size
 * divided by the average width of up to {@value #SAMPLE_ROWS} rows sampled from the first file
 * (inexact; compressed files count their compressed size, so they are underestimated); column
 * widths come from the same sample. Nothing else is known.
 */
public final class CsvTableStatistics {
    static final int SAMPLE_ROWS = 200;

    private CsvTableStatistics() {
    }

    /** The statistics of {@code files}, {@code totalBytes} long together, sampled from the first. */
    public static Statistics of(List<SourceFile> files, long totalBytes, Schema schema, CsvOptions options) {
        double[] fieldChars = new double[schema.size()];
        long sampled = 0;
        long sampledChars = 0;
        if (!files.isEmpty()) {
            SourceFile first = files.get(0);
            Path path = new Path(first.path());
            try (CsvTokenizer tokenizer = CsvFile.open(path, first.length(), first.modificationTime(), options)) {
                CsvFile.skipHeader(tokenizer, path, options);
                while (sampled < SAMPLE_ROWS && tokenizer.next()) {
                    int n = Math.min(tokenizer.fieldCount(), fieldChars.length);
                    long row = tokenizer.fieldCount(); // separators and the line end
                    for (int i = 0; i < tokenizer.fieldCount(); i++) {
                        int chars = tokenizer.end(i) - tokenizer.start(i);
                        row += chars;
                        if (i < n) {
                            fieldChars[i] += chars;
                        }
                    }
                    sampledChars += row;
                    sampled++;
                }
            } catch (IOException e) {
                throw new SluiceException("cannot read CSV file " + path + ": " + e.getMessage(), e);
            }
        }
        double rowWidth = sampled == 0 ? 0 : (double) sampledChars / sampled;
        double rows = rowWidth <= 0 ? 0 : Math.ceil(totalBytes / rowWidth);
        List<ColumnStatistics> columns = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            DataType type = schema.field(i).type();
            double width = type.kind() == DataType.Kind.UTF8 && sampled > 0
                    ? fieldChars[i] / sampled + 4 : ColumnStatistics.nominalWidth(type);
            columns.add(ColumnStatistics.unknown(width));
        }
        return Statistics.of(Estimate.inexact(rows), columns);
    }
}
