package io.sluice.datasource.json;

import io.sluice.common.types.Schema;
import io.sluice.datasource.file.SourceFile;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Table statistics for JSON lines files without reading them whole: the row count is the files'
 * total size divided by the average length of up to {@value #SAMPLE_LINES} lines of the first file
 * (inexact; compressed files count their compressed size, so they are underestimated). Column
 * widths are nominal; nothing else is known.
 */
public final class JsonTableStatistics {
    static final int SAMPLE_LINES = 200;

    private JsonTableStatistics() {
    }

    /** The statistics of {@code files}, {@code totalBytes} long together, sampled from the first. */
    public static Statistics of(List<SourceFile> files, long totalBytes, Schema schema) {
        long sampled = 0;
        long sampledBytes = 0;
        if (!files.isEmpty()) {
            SourceFile first = files.get(0);
            try (JsonLines lines = JsonLines.open(new Path(first.path()), first.length(), first.modificationTime(), 0, -1)) {
                while (sampled < SAMPLE_LINES && lines.next()) {
                    sampledBytes += lines.length() + 1;
                    sampled++;
                }
            }
        }
        double rows = sampled == 0 ? 0 : Math.ceil(totalBytes / ((double) sampledBytes / sampled));
        List<ColumnStatistics> columns = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            columns.add(ColumnStatistics.unknown(ColumnStatistics.nominalWidth(schema.field(i).type())));
        }
        return Statistics.of(Estimate.inexact(rows), columns);
    }
}
