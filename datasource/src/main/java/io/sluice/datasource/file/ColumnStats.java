package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

/**
 * Min and max of a column in one row group, as engine values (Long for integers, dates and
 * unscaled decimals, Double, String, Boolean); null when unknown. {@code nullCount} is -1 when
 * unknown.
 */
public record ColumnStats(String column, Object min, Object max, long nullCount) {
    public ColumnStats {
        requireNonNull(column, "column is null");
    }
}
