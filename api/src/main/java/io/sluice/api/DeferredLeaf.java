package io.sluice.api;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unevaluable;
import java.util.List;

/**
 * A Column's leaf that only a DataFrame can make into a logical expression ({@link ColumnResolver}):
 * it has no children and no type of its own until then.
 */
interface DeferredLeaf extends Unevaluable {
    @Override
    default DataType type(Schema schema) {
        throw notEvaluable();
    }

    @Override
    default List<Expr> children() {
        return List.of();
    }

    @Override
    default Expr withChildren(List<Expr> children) {
        return this;
    }
}
