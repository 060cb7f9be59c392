package io.sluice.api;

import io.sluice.logical.expr.SortKey;
import java.util.List;

/**
 * Entry points of {@link WindowSpec}, as Spark's {@code Window}:
 * {@code row_number().over(Window.partitionBy("k").orderBy(col("t").desc()))}.
 */
public final class Window {
    /** A frame bound: the partition's first row. */
    public static final long unboundedPreceding = Long.MIN_VALUE;
    /** A frame bound: the partition's last row. */
    public static final long unboundedFollowing = Long.MAX_VALUE;
    /** A frame bound: the current row (for a range frame, its peers). */
    public static final long currentRow = 0;

    private Window() {
    }

    public static WindowSpec partitionBy(Column... keys) {
        return empty().partitionBy(keys);
    }

    public static WindowSpec partitionBy(String... keys) {
        return empty().partitionBy(keys);
    }

    public static WindowSpec orderBy(SortKey... keys) {
        return empty().orderBy(keys);
    }

    public static WindowSpec orderBy(Column... columns) {
        return empty().orderBy(columns);
    }

    public static WindowSpec orderBy(String... columns) {
        return empty().orderBy(columns);
    }

    private static WindowSpec empty() {
        return new WindowSpec(List.of(), List.of(), null);
    }
}
