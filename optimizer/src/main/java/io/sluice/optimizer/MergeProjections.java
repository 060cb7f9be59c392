package io.sluice.optimizer;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.ArrayList;
import java.util.List;

/**
 * Merges a projection into the projection below it: each column the upper one reads is replaced by
 * the lower one's expression for it, so one operator computes both.
 *
 * <p>Merging would compute an expression once per reference instead of once per row, so it is done
 * only when every lower expression that computes something (not a bare column or a constant) is read
 * at most once by the upper projection. Guarantees: the merged projection has the upper one's
 * schema, names included; otherwise the same instance comes back.
 */
public final class MergeProjections implements NodeRule {
    @Override
    public String name() {
        return "MergeProjections";
    }

    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    /** Bottom-up, so a chain of projections collapses into one in a single walk. */
    @Override
    public LogicalPlan applyToNode(LogicalPlan plan) {
        if (!(plan instanceof Projection upper) || !(upper.input() instanceof Projection lower)) {
            return plan;
        }
        Schema middle = lower.schema();
        int[] uses = new int[middle.size()];
        for (Expr e : upper.exprs()) {
            countUses(e, middle, uses);
        }
        for (int i = 0; i < uses.length; i++) {
            Expr computed = Exprs.unalias(lower.exprs().get(i));
            if (uses[i] > 1 && !(computed instanceof Column) && !(computed instanceof Literal)) {
                return plan;
            }
        }
        List<Expr> merged = new ArrayList<>(upper.exprs().size());
        for (Expr e : upper.exprs()) {
            Expr inlined = PlanRewrites.replaceColumns(e,
                    c -> Exprs.unalias(lower.exprs().get(PlanRewrites.indexOf(middle, c.column()))));
            merged.add(PlanRewrites.named(inlined, e.name()));
        }
        return new Projection(lower.input(), merged);
    }

    private static void countUses(Expr e, Schema schema, int[] uses) {
        if (e instanceof Column c) {
            uses[PlanRewrites.indexOf(schema, c.column())]++;
        }
        for (Expr child : e.children()) {
            countUses(child, schema, uses);
        }
    }
}
