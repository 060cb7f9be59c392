package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.GroupingCall;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Re-expresses HAVING, select and ORDER BY expressions over an {@code Aggregate}'s output: each
 * group-by expression and each aggregate call becomes a column of the name the Aggregate gives it.
 * What is left that still reads an input column was neither grouped nor aggregated: an error.
 */
final class AggregateRewriter {
    private final List<Expr> groupBy;

    AggregateRewriter(List<Expr> groupBy) {
        this.groupBy = List.copyOf(groupBy);
    }

    /** Aggregate calls in {@code exprs}, outermost first, each once. */
    static Set<AggregateCall> collectAggregates(List<Expr> exprs) {
        Set<AggregateCall> out = new LinkedHashSet<>();
        for (Expr e : exprs) {
            collect(e, out);
        }
        return out;
    }

    /** {@code grouping(...)} calls in {@code exprs}, each once. */
    static Set<GroupingCall> collectGroupingCalls(List<Expr> exprs) {
        Set<GroupingCall> out = new LinkedHashSet<>();
        for (Expr e : exprs) {
            collectGrouping(e, out);
        }
        return out;
    }

    private static void collectGrouping(Expr e, Set<GroupingCall> out) {
        if (e instanceof GroupingCall call) {
            out.add(call);
            return;
        }
        for (Expr child : e.children()) {
            collectGrouping(child, out);
        }
    }

    private static void collect(Expr e, Set<AggregateCall> out) {
        if (e instanceof AggregateCall call) {
            out.add(call);
            return;
        }
        for (Expr child : e.children()) {
            collect(child, out);
        }
    }

    /** Top-down, so {@code k + 1} matches a group-by {@code k + 1} before {@code k} is looked at. */
    Expr rewrite(Expr e) {
        int group = groupBy.indexOf(e);
        if (group >= 0) {
            return new Column(groupBy.get(group).name());
        }
        if (e instanceof AggregateCall || e instanceof GroupingCall) {
            return new Column(e.name());
        }
        if (e instanceof Column c) {
            throw new SluiceException("column '" + c.column()
                    + "' must appear in the GROUP BY clause or be used in an aggregate function");
        }
        List<Expr> children = e.children();
        if (children.isEmpty()) {
            return e;
        }
        List<Expr> rewritten = new ArrayList<>(children.size());
        for (Expr child : children) {
            rewritten.add(rewrite(child));
        }
        return e.withChildren(rewritten);
    }
}
