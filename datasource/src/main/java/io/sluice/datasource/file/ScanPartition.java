package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The unit of scan work: a whole file, or one Parquet row group ({@code rowGroup >= 0}), with the
 * row group's column statistics where the file has them (used to skip it by a filter). A Hive
 * partition column's entry holds the file's value of it exactly ({@link PartitionColumns#stats}).
 */
public record ScanPartition(String path, int rowGroup, List<ColumnStats> stats) {
    public ScanPartition {
        requireNonNull(path, "path is null");
        stats = List.copyOf(stats);
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
