package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;

/**
 * Expression strings ({@code selectExpr("a + 1 AS b")}, {@code expr("...")}, {@code filter("a > 1")})
 * read by the SQL front end, so that they mean what the same text means in {@code spark.sql}: the
 * text is parsed as {@code SELECT text FROM input} over a scratch catalog in which {@code input} is
 * the plan the expression is evaluated over.
 */
final class ExpressionStrings {
    private static final String INPUT = "__sluice_connect_input";

    private final InMemoryCatalog sessionCatalog;

    ExpressionStrings(InMemoryCatalog sessionCatalog) {
        this.sessionCatalog = requireNonNull(sessionCatalog, "sessionCatalog is null");
    }

    Expr expression(String text, LogicalPlan input) {
        InMemoryCatalog scratch = InMemoryCatalog.layeredOver(sessionCatalog);
        scratch.registerView(INPUT, input, true);
        Statement statement = SqlFrontEnd.parse("SELECT " + text + " FROM " + INPUT, scratch);
        if (!(statement instanceof Statement.Query query)) {
            throw new SluiceException("not an expression: " + text);
        }
        Aggregate aggregate = find(query.plan(), Aggregate.class, input);
        if (aggregate != null && aggregate.groupBy().isEmpty() && aggregate.aggregates().size() == 1) {
            return aggregate.aggregates().get(0);
        }
        if (query.plan() instanceof Projection projection && projection.exprs().size() == 1) {
            return projection.exprs().get(0);
        }
        throw new SluiceException("expression string must be one expression: " + text);
    }

    /** The first node of {@code type} above {@code input} (the input's own nodes are not the expression's). */
    private static <T> T find(LogicalPlan plan, Class<T> type, LogicalPlan input) {
        if (plan.equals(input)) {
            return null;
        }
        if (type.isInstance(plan)) {
            return type.cast(plan);
        }
        for (LogicalPlan child : plan.children()) {
            T found = find(child, type, input);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
