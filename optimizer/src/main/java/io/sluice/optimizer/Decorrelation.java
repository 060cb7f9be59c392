package io.sluice.optimizer;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.SubqueryAlias;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What decorrelation needs besides {@link SubqueryUnnesting}: a keyed cross join, and fresh column
 * names ({@code __sqN.c}) for the subquery side of the new join, so they never clash with the outer
 * query's.
 */
final class Decorrelation {
    private Decorrelation() {
    }

    /**
     * A join of every left row with every right row, as an equi-join on the constant key pair
     * {@code 0 = 0}, which puts all rows in one hash bucket (fine for the one-row or small right
     * sides used here). The physical planner keys a keyless join the same way; keying it here
     * already keeps the decorrelated plans' printed form stable.
     */
    static Join keyedCross(LogicalPlan left, LogicalPlan right, JoinType type, Expr filter) {
        return new Join(left, right, type, List.of(Literal.of(0L)), List.of(Literal.of(0L)), filter);
    }

    /** {@code __sqN} for the smallest N no column of {@code schema} is qualified with. */
    static String freshQualifier(Schema schema) {
        for (int n = 1; ; n++) {
            String prefix = "__sq" + n + ".";
            if (schema.names().stream().noneMatch(name -> name.startsWith(prefix))) {
                return "__sq" + n;
            }
        }
    }

    /**
     * The subquery side of a join: a projection of {@code outputs} (expressions over {@code body})
     * under fresh names {@code qualifier.c}, {@code c} being each output's unqualified name, made
     * unique with a suffix. {@link #name} then gives the column an output became.
     */
    static final class RightSide {
        private final Map<Expr, String> names = new LinkedHashMap<>();
        private final String qualifier;

        RightSide(String qualifier) {
            this.qualifier = qualifier;
        }

        /** Adds an output (once per distinct expression) and returns its column. */
        Column add(Expr e, String preferred) {
            String name = names.get(e);
            if (name == null) {
                String base = qualifier + "." + SubqueryAlias.unqualified(preferred);
                name = base;
                for (int i = 2; names.containsValue(name); i++) {
                    name = base + "_" + i;
                }
                names.put(e, name);
            }
            return new Column(name);
        }

        Column add(Expr e) {
            return add(e, Exprs.unalias(e).name());
        }

        String qualifier() {
            return qualifier;
        }

        boolean isEmpty() {
            return names.isEmpty();
        }

        LogicalPlan build(LogicalPlan body) {
            List<Expr> exprs = new ArrayList<>();
            names.forEach((e, name) -> exprs.add(PlanRewrites.named(e, name)));
            return new Projection(body, exprs);
        }
    }
}
