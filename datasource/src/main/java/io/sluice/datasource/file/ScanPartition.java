package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The unit of scan work: a whole file, or one Parquet row group ({@code rowGroup >= 0}), with the
 * row group's column statistics where the file has them (used to skip it by a filter), and the
 * hosts holding its bytes where the file system keeps blocks on nodes (HDFS; empty elsewhere), for
 * the scheduler to prefer a worker on one of them.
 */
public record ScanPartition(String path, int rowGroup, List<ColumnStats> stats, List<String> hosts) {
    public ScanPartition {
        requireNonNull(path, "path is null");
        stats = List.copyOf(stats);
        hosts = List.copyOf(hosts);
    }

    public ScanPartition(String path, int rowGroup, List<ColumnStats> stats) {
        this(path, rowGroup, stats, List.of());
    }

    public ScanPartition(String path, int rowGroup) {
        this(path, rowGroup, List.of());
    }

    /** The statistics of a column, or null when unknown. */
    public ColumnStats stats(String column) {
        for (ColumnStats s : stats) {
            if (s.column().equalsIgnoreCase(column)) {
                return s;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return rowGroup < 0 ? path : path + "#rg" + rowGroup;
    }
}
