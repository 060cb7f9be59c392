package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The unit of scan work: a whole file, one Parquet row group ({@code rowGroup >= 0}), with the row
 * group's column statistics where the file has them (used to skip it by a filter), or a byte range
 * ({@code length >= 0}) of a line-oriented file (the lines starting in {@code [offset, offset + length)})
 * or of a Parquet file (the run of row groups starting in it, their statistics merged). {@code hosts} are the nodes holding its bytes where the file
 * system keeps blocks on nodes (HDFS; empty elsewhere), for the scheduler to prefer a worker on one.
 * A Hive partition column's entry in {@code stats} holds the file's value of it exactly
 * ({@link PartitionColumns#stats}). {@code fileLength} and {@code modificationTime} are the file's as
 * listing found them at planning ({@code -1} when not known): a task opens the file with them instead
 * of asking the file system again (a HEAD request per task on an object store), and they key the
 * footers a node keeps.
 */
public record ScanPartition(String path, int rowGroup, List<ColumnStats> stats, long offset, long length,
        List<String> hosts, long fileLength, long modificationTime) {
    public ScanPartition {
        requireNonNull(path, "path is null");
        stats = List.copyOf(stats);
        hosts = List.copyOf(hosts);
        if (offset < 0 || (length < 0 && offset != 0)) {
            throw new IllegalArgumentException("bad byte range " + offset + "+" + length + " of " + path);
        }
    }

    /** A partition whose file's length and modification time are not known. */
    public ScanPartition(String path, int rowGroup, List<ColumnStats> stats, long offset, long length, List<String> hosts) {
        this(path, rowGroup, stats, offset, length, hosts, -1, -1);
    }

    /** A whole file or a row group, on {@code hosts}. */
    public ScanPartition(String path, int rowGroup, List<ColumnStats> stats, List<String> hosts) {
        this(path, rowGroup, stats, 0, -1, hosts);
    }

    public ScanPartition(String path, int rowGroup, List<ColumnStats> stats) {
        this(path, rowGroup, stats, List.of());
    }

    public ScanPartition(String path, int rowGroup) {
        this(path, rowGroup, List.of());
    }

    /** This partition with other statistics. */
    public ScanPartition withStats(List<ColumnStats> newStats) {
        return new ScanPartition(path, rowGroup, newStats, offset, length, hosts, fileLength, modificationTime);
    }

    /** This partition of a file of the length and modification time listing found. */
    public ScanPartition withFile(SourceFile file) {
        return new ScanPartition(path, rowGroup, stats, offset, length, hosts, file.length(), file.modificationTime());
    }

    /** True for a byte range of a file, false for a whole file or a row group. */
    public boolean isRange() {
        return length >= 0;
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
        if (isRange()) {
            return path + "@" + offset + "+" + length;
        }
        return rowGroup < 0 ? path : path + "#rg" + rowGroup;
    }
}
