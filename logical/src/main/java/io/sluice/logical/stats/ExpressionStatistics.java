package io.sluice.logical.stats;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;

/** Column statistics of an expression's values over an input whose statistics are known. */
public final class ExpressionStatistics {
    private ExpressionStatistics() {
    }

    /**
     * The statistics of the input column {@code e} refers to, looking through aliases (and casts,
     * which keep counts but not the range); null when {@code e} is not a column reference.
     */
    public static ColumnStatistics column(Expr e, Schema schema, Statistics input) {
        boolean cast = false;
        while (e instanceof Alias || e instanceof Cast) {
            cast |= e instanceof Cast;
            e = e.children().get(0);
        }
        if (!(e instanceof Column c)) {
            return null;
        }
        int index;
        try {
            index = schema.indexOf(c.column());
        } catch (SluiceException ambiguous) {
            return null;
        }
        if (index < 0 || index >= input.columns().size()) {
            return null;
        }
        ColumnStatistics stats = input.column(index);
        return cast ? new ColumnStatistics(stats.distinctCount(), stats.nullCount(), null, null,
                Estimate.Precision.ABSENT, stats.averageWidth()) : stats;
    }

    /** Statistics of {@code e}'s values: a column's, a constant's, or nothing known but the type's width. */
    public static ColumnStatistics of(Expr e, Schema schema, Statistics input) {
        ColumnStatistics column = column(e, schema, input);
        if (column != null) {
            return column;
        }
        Expr inner = e instanceof Alias a ? a.input() : e;
        DataType type;
        try {
            type = e.type(schema);
        } catch (SluiceException unknown) {
            type = DataType.NULL;
        }
        if (inner instanceof Literal l) {
            return ColumnStatistics.constant(l.value(), type, input.rowCount());
        }
        return ColumnStatistics.unknown(type);
    }
}
