package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import java.util.Arrays;
import java.util.List;

/**
 * The window of {@link Column#over}: partitioning, order and frame, built as in Spark:
 * {@code Window.partitionBy("k").orderBy(col("t").asc()).rowsBetween(-2, Window.currentRow)}.
 * Immutable; each method returns a new spec. Without a frame the SQL default applies (up to the
 * current row's peers with an order, the whole partition without).
 */
public final class WindowSpec {
    private final List<Expr> partitionBy;
    private final List<SortKey> orderBy;
    private final WindowFrame frame;

    WindowSpec(List<Expr> partitionBy, List<SortKey> orderBy, WindowFrame frame) {
        this.partitionBy = List.copyOf(partitionBy);
        this.orderBy = List.copyOf(orderBy);
        this.frame = frame;
    }

    public WindowSpec partitionBy(Column... keys) {
        return new WindowSpec(Arrays.stream(keys).map(Column::expr).toList(), orderBy, frame);
    }

    public WindowSpec partitionBy(String... keys) {
        return partitionBy(Arrays.stream(keys).map(Functions::col).toArray(Column[]::new));
    }

    public WindowSpec orderBy(SortKey... keys) {
        return new WindowSpec(partitionBy, List.of(keys), frame);
    }

    /** By each column: its order ({@code col("t").desc()}), else ascending with NULLs last. */
    public WindowSpec orderBy(Column... columns) {
        return orderBy(Arrays.stream(columns).map(Column::sortKey).toArray(SortKey[]::new));
    }

    /** Ascending by each named column. */
    public WindowSpec orderBy(String... columns) {
        return orderBy(Arrays.stream(columns).map(c -> Functions.col(c).sortKey()).toArray(SortKey[]::new));
    }

    /**
     * A frame of rows relative to the current one: negative is preceding, 0 the current row,
     * positive following; {@link Window#unboundedPreceding} and {@link Window#unboundedFollowing}
     * for the partition's ends.
     */
    public WindowSpec rowsBetween(long start, long end) {
        return new WindowSpec(partitionBy, orderBy, frame(WindowFrame.Units.ROWS, start, end));
    }

    /** A frame by the (single) ORDER BY value's distance from the current row's; 0 is its peers. */
    public WindowSpec rangeBetween(long start, long end) {
        return new WindowSpec(partitionBy, orderBy, frame(WindowFrame.Units.RANGE, start, end));
    }

    private static WindowFrame frame(WindowFrame.Units units, long start, long end) {
        if (start == Window.unboundedFollowing) {
            throw new SluiceException("a window frame cannot start at unboundedFollowing");
        }
        if (end == Window.unboundedPreceding) {
            throw new SluiceException("a window frame cannot end at unboundedPreceding");
        }
        return new WindowFrame(units, bound(start), bound(end));
    }

    private static WindowFrame.Bound bound(long offset) {
        if (offset == Window.unboundedPreceding) {
            return WindowFrame.Bound.UNBOUNDED_PRECEDING;
        }
        if (offset == Window.unboundedFollowing) {
            return WindowFrame.Bound.UNBOUNDED_FOLLOWING;
        }
        if (offset == 0) {
            return WindowFrame.Bound.CURRENT_ROW;
        }
        return offset < 0 ? WindowFrame.Bound.preceding(-offset) : WindowFrame.Bound.following(offset);
    }

    /** {@code call} (a window function or aggregate, see {@link Column#over}) over this window. */
    WindowCall apply(WindowCall call) {
        WindowFrame f = frame != null ? frame : WindowCall.defaultFrame(orderBy);
        return new WindowCall(call.function(), call.arguments(), partitionBy, orderBy, f, call.ignoreNulls());
    }
}
