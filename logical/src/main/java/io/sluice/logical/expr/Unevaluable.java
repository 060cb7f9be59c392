package io.sluice.logical.expr;

/**
 * An expression that has no value of its own: a planner rewrites it away before execution
 * (aggregate, window and grouping calls become operators, subqueries joins, outer references join
 * columns). One that reaches an operator binds, and fails when evaluated with {@link #notEvaluable}.
 */
public interface Unevaluable extends Expr {
    /** The error that evaluating it raises, naming what was not planned away. */
    RuntimeException notEvaluable();
}
