package io.sluice.api;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.SetOperations;
import io.sluice.logical.plan.Window;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dropDuplicates(columns)}: one row per distinct combination of the columns (NULLs equal), its
 * other columns from any one row of the group, as Spark: row_number() over the groups, kept where 1.
 */
final class Deduplication {
    private Deduplication() {
    }

    static DataFrame of(DataFrame df, List<String> columns) {
        if (columns.isEmpty()) {
            return df.distinct();
        }
        LogicalPlan plan = df.logicalPlan();
        List<Expr> keys = new ArrayList<>();
        for (String c : columns) {
            keys.add(new Column(plan.schema().field(c).name()));
        }
        List<String> names = plan.schema().names();
        String copy = SetOperations.freshName("__copy", names);
        WindowCall rowNumber = new WindowCall(WindowFunction.ROW_NUMBER, List.of(), keys, List.of(), WindowFrame.WHOLE_PARTITION);
        LogicalPlan numbered = new Window(plan, List.of(new Alias(rowNumber, copy)));
        LogicalPlan first = new Filter(numbered, new Binary(BinaryOp.EQ, new Column(copy), Literal.of(1L)));
        return df.derive(new Projection(first, names.stream().map(n -> (Expr) new Column(n)).toList()));
    }
}
