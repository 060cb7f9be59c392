package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Unevaluable;
import java.util.List;

/**
 * {@code col("a").desc()}: a Column that is a sort order, as in Spark; {@code orderBy}, {@code sort}
 * and window specs take it, anything else refuses it.
 */
record SortOrder(Expr input, boolean ascending, boolean nullsFirst) implements Unevaluable {
    SortOrder {
        requireNonNull(input, "input is null");
    }

    /** The sort key of a Column: its order if it is one, else ascending (NULLs last, as the engine's SQL). */
    static SortKey keyOf(Expr e) {
        if (e instanceof SortOrder o) {
            return new SortKey(o.input, o.ascending, o.nullsFirst);
        }
        return SortKey.asc(e);
    }

    @Override
    public DataType type(Schema schema) {
        throw notEvaluable();
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new SortOrder(children.get(0), ascending, nullsFirst);
    }

    @Override
    public RuntimeException notEvaluable() {
        return new SluiceException("the sort order " + this + " is only allowed in orderBy, sort and a window's orderBy");
    }

    @Override
    public String toString() {
        return input + (ascending ? " ASC" : " DESC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
}
