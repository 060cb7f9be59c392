package io.sluice.plan.source;

import static java.util.Objects.requireNonNull;

/** The unit of scan work: a whole file, or one Parquet row group ({@code rowGroup >= 0}). */
public record ScanPartition(String path, int rowGroup) {
    public ScanPartition {
        requireNonNull(path, "path is null");
    }

    @Override
    public String toString() {
        return rowGroup < 0 ? path : path + "#rg" + rowGroup;
    }
}
