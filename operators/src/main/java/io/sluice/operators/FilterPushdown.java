package io.sluice.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.expr.Expr;
import java.util.List;

/**
 * A child's answer to filters offered by its parent: the child's new plan and the filters it does
 * not fully enforce, which must stay above it. A filter it used only partly (e.g. to skip row
 * groups by statistics) is in {@code remaining}.
 */
public record FilterPushdown(ExecutionPlan plan, List<Expr> remaining) {
    public FilterPushdown {
        requireNonNull(plan, "plan is null");
        remaining = List.copyOf(remaining);
    }

    /** Took none of them. */
    public static FilterPushdown none(ExecutionPlan plan, List<Expr> offered) {
        return new FilterPushdown(plan, offered);
    }
}
