package io.sluice.optimizer.logical;

import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.logical.TableScan;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads only the columns a query uses: walks down with the set of columns the parent needs and
 * narrows each table scan's projection to them (in the table's column order). Nodes that compute
 * new columns (projections, aggregates) need only what their expressions read; others pass their
 * parent's needs down plus what their own expressions read.
 */
public final class PruneColumns implements LogicalRule {
    @Override
    public String name() {
        return "PruneColumns";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        return prune(plan, null);
    }

    /** {@code required} null means every output column. */
    private static LogicalPlan prune(LogicalPlan plan, Set<String> required) {
        if (plan instanceof TableScan scan) {
            if (required == null) {
                return scan;
            }
            List<String> keep = new ArrayList<>();
            for (String column : scan.source().schema().names()) {
                if (containsIgnoreCase(required, column)) {
                    keep.add(column);
                }
            }
            if (keep.isEmpty()) {
                keep.add(scan.source().schema().field(0).name()); // count(*) still needs row counts
            }
            if (keep.equals(scan.schema().names())) {
                return scan;
            }
            return new TableScan(scan.source(), keep);
        }
        Set<String> childNeeds;
        if (plan instanceof Projection || plan instanceof Aggregate) {
            childNeeds = new LinkedHashSet<>();
        } else {
            childNeeds = required == null ? null : new LinkedHashSet<>(required);
        }
        if (childNeeds != null) {
            for (Expr e : plan.expressions()) {
                childNeeds.addAll(Exprs.columns(e));
            }
        }
        List<LogicalPlan> children = plan.children();
        List<LogicalPlan> rewritten = new ArrayList<>(children.size());
        boolean changed = false;
        for (LogicalPlan child : children) {
            LogicalPlan r = prune(child, childNeeds);
            changed |= r != child;
            rewritten.add(r);
        }
        return changed ? plan.withNewChildren(rewritten) : plan;
    }

    private static boolean containsIgnoreCase(Set<String> names, String column) {
        for (String n : names) {
            if (n.equalsIgnoreCase(column)) {
                return true;
            }
        }
        return false;
    }
}
