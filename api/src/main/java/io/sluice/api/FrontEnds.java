package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.QueryService;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.function.CallContext;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.sql.InMemoryCatalog;

/**
 * What another front end over the same planner (Spark Connect, module {@code connect}) needs of the
 * API beyond its public surface: a session on the coordinator of this process with a catalog the
 * front end holds, and DataFrames and Columns over plans and expressions it translated itself. Kept
 * in one place so that the public API stays what a program writes.
 */
public final class FrontEnds {
    private FrontEnds() {
    }

    /**
     * A session whose queries run on {@code queries}' coordinator in this process and whose SQL works
     * on {@code catalog} (a session catalog from {@link QueryService#newSessionCatalog()}). Closing it
     * leaves the coordinator running.
     */
    public static Session session(QueryService queries, InMemoryCatalog catalog) {
        return Session.of(new CoordinatorEngine(queries, catalog));
    }

    /** A DataFrame of {@code session} over {@code plan}. */
    public static DataFrame dataFrame(Session session, LogicalPlan plan) {
        return new DataFrame(session, plan);
    }

    /** A DataFrame of {@code session} over rows already computed (planned as constants). */
    public static DataFrame dataFrame(Session session, QueryResult rows) {
        return DataFrame.ofResult(session, rows);
    }

    /**
     * Expression text ({@code selectExpr}, {@code expr("…")}) planned, once its DataFrame is known,
     * with {@code context}'s time zone and arithmetic mode (a Spark Connect session's), not the Java
     * API's UTC and strict arithmetic.
     */
    public static Column expr(String text, CallContext context) {
        return new Column(new ExprText(text, requireNonNull(context, "context is null")));
    }

    /** The API column of a logical expression. */
    public static Column column(Expr expr) {
        return new Column(expr);
    }
}
