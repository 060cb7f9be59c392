package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;

/**
 * The rows of its partition a window function sees for each row: {@code ROWS} counts rows from the
 * current one; {@code RANGE} is by the ORDER BY value, where {@code CURRENT ROW} means the current
 * row's peers (rows with equal ORDER BY values) and {@code n PRECEDING/FOLLOWING} the rows whose
 * single ORDER BY key is within {@code n} of the current row's.
 */
public record WindowFrame(Units units, Bound start, Bound end) {
    public enum Units { ROWS, RANGE }

    public enum BoundKind { UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING }

    /** One end of a frame; {@code offset} counts only for PRECEDING and FOLLOWING. */
    public record Bound(BoundKind kind, long offset) {
        public Bound {
            requireNonNull(kind, "kind is null");
            if (offset < 0) {
                throw new SluiceException("a window frame offset must not be negative, not " + offset);
            }
            if (kind != BoundKind.PRECEDING && kind != BoundKind.FOLLOWING) {
                offset = 0;
            }
        }

        public static final Bound UNBOUNDED_PRECEDING = new Bound(BoundKind.UNBOUNDED_PRECEDING, 0);
        public static final Bound CURRENT_ROW = new Bound(BoundKind.CURRENT_ROW, 0);
        public static final Bound UNBOUNDED_FOLLOWING = new Bound(BoundKind.UNBOUNDED_FOLLOWING, 0);

        public static Bound preceding(long offset) {
            return new Bound(BoundKind.PRECEDING, offset);
        }

        public static Bound following(long offset) {
            return new Bound(BoundKind.FOLLOWING, offset);
        }

        /** Whether the offset is one: a number of rows or a distance in the ORDER BY value. */
        public boolean hasOffset() {
            return kind == BoundKind.PRECEDING || kind == BoundKind.FOLLOWING;
        }

        @Override
        public String toString() {
            return switch (kind) {
                case UNBOUNDED_PRECEDING -> "UNBOUNDED PRECEDING";
                case PRECEDING -> offset + " PRECEDING";
                case CURRENT_ROW -> "CURRENT ROW";
                case FOLLOWING -> offset + " FOLLOWING";
                case UNBOUNDED_FOLLOWING -> "UNBOUNDED FOLLOWING";
            };
        }
    }

    /** With ORDER BY, the SQL default: the partition's rows up to the current row's last peer. */
    public static final WindowFrame RANGE_TO_CURRENT = new WindowFrame(Units.RANGE, Bound.UNBOUNDED_PRECEDING,
            Bound.CURRENT_ROW);

    /** Without ORDER BY, the SQL default: the whole partition. */
    public static final WindowFrame WHOLE_PARTITION = new WindowFrame(Units.ROWS, Bound.UNBOUNDED_PRECEDING,
            Bound.UNBOUNDED_FOLLOWING);

    public WindowFrame {
        requireNonNull(units, "units is null");
        requireNonNull(start, "start is null");
        requireNonNull(end, "end is null");
        if (start.kind() == BoundKind.UNBOUNDED_FOLLOWING) {
            throw new SluiceException("a window frame cannot start at UNBOUNDED FOLLOWING");
        }
        if (end.kind() == BoundKind.UNBOUNDED_PRECEDING) {
            throw new SluiceException("a window frame cannot end at UNBOUNDED PRECEDING");
        }
        if (start.kind().ordinal() > end.kind().ordinal() && !(start.hasOffset() && end.hasOffset())) {
            throw new SluiceException("a window frame cannot start at " + start + " and end at " + end);
        }
    }

    /** Whether each row's frame starts at its partition's first row (a running frame). */
    public boolean unboundedStart() {
        return start.kind() == BoundKind.UNBOUNDED_PRECEDING;
    }

    /** Whether a bound is a value distance ({@code RANGE n PRECEDING/FOLLOWING}). */
    public boolean rangeOffsets() {
        return units == Units.RANGE && (start.hasOffset() || end.hasOffset());
    }

    @Override
    public String toString() {
        return units + " BETWEEN " + start + " AND " + end;
    }
}
