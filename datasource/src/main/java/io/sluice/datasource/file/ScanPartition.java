package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The unit of scan work: a whole file, one Parquet row group ({@code rowGroup >= 0}), with the row
 * group's column statistics where the file has them (used to skip it by a filter), or a byte range
 * of a line-oriented file ({@code length >= 0}: the lines starting in
 * {@code [offset, offset + length)}).
 */
public record ScanPartition(String path, int rowGroup, List<ColumnStats> stats, long offset, long length) {
    public ScanPartition {
        requireNonNull(path, "path is null");
        stats = List.copyOf(stats);
        if (offset < 0 || (length < 0 && offset != 0)) {
            throw new IllegalArgumentException("bad byte range " + offset + "+" + length + " of " + path);
        }
    }

    public ScanPartition(String path, int rowGroup, List<ColumnStats> stats) {
        this(path, rowGroup, stats, 0, -1);
    }

    public ScanPartition(String path, int rowGroup) {
        this(path, rowGroup, List.of());
    }

    /** The lines of a file starting in {@code [offset, offset + length)}. */
    public static ScanPartition range(String path, long offset, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length + " of " + path);
        }
        return new ScanPartition(path, -1, List.of(), offset, length);
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
