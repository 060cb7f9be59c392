package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.QueryResult;
import io.sluice.plan.expr.Alias;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.logical.Filter;
import io.sluice.plan.logical.Limit;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.logical.Sort;
import io.sluice.plan.logical.WindowPlanner;
import io.sluice.plan.types.Schema;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable, lazily evaluated query: each method returns a new DataFrame over a bigger logical
 * plan; {@link #collect()} runs it on the session's cluster. Unknown columns and type errors are
 * reported when the DataFrame is built, not when it runs.
 */
public final class DataFrame {
    private final Session session;
    private final LogicalPlan plan;

    DataFrame(Session session, LogicalPlan plan) {
        this.session = requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
    }

    public LogicalPlan logicalPlan() {
        return plan;
    }

    public Schema schema() {
        return plan.schema();
    }

    public DataFrame filter(Column predicate) {
        return new DataFrame(session, new Filter(plan, predicate.expr()));
    }

    public DataFrame where(Column predicate) {
        return filter(predicate);
    }

    /** The given columns; window functions among them ({@link Column#over}) are computed first. */
    public DataFrame select(Column... columns) {
        List<Expr> exprs = new ArrayList<>();
        for (Column c : columns) {
            exprs.add(c.expr());
        }
        LogicalPlan input = plan;
        if (WindowPlanner.any(exprs)) {
            WindowPlanner windows = WindowPlanner.plan(plan, exprs);
            input = windows.plan();
            exprs = exprs.stream().map(e -> {
                Expr rewritten = windows.rewrite(e);
                return rewritten.name().equals(e.name()) ? rewritten : new Alias(rewritten, e.name());
            }).toList();
        }
        return new DataFrame(session, new Projection(input, exprs));
    }

    /** Every column, plus {@code column} named {@code name} (replacing a column of that name). */
    public DataFrame withColumn(String name, Column column) {
        List<Column> columns = new ArrayList<>();
        for (String existing : plan.schema().names()) {
            if (!existing.equalsIgnoreCase(name)) {
                columns.add(Functions.col(existing));
            }
        }
        columns.add(column.as(name));
        return select(columns.toArray(Column[]::new));
    }

    public DataFrame select(String... columns) {
        return select(Arrays.stream(columns).map(Functions::col).toArray(Column[]::new));
    }

    public GroupedData groupBy(Column... keys) {
        return new GroupedData(session, plan, Arrays.stream(keys).map(Column::expr).toList());
    }

    public GroupedData groupBy(String... keys) {
        return groupBy(Arrays.stream(keys).map(Functions::col).toArray(Column[]::new));
    }

    /** A whole-table aggregate, e.g. {@code df.agg(countStar())}. */
    public DataFrame agg(Column... aggregates) {
        return new GroupedData(session, plan, List.of()).agg(aggregates);
    }

    public DataFrame orderBy(SortKey... keys) {
        return new DataFrame(session, new Sort(plan, List.of(keys)));
    }

    /** Ascending by each named column. */
    public DataFrame orderBy(String... columns) {
        return orderBy(Arrays.stream(columns).map(c -> Functions.col(c).asc()).toArray(SortKey[]::new));
    }

    public DataFrame limit(long n) {
        return new DataFrame(session, new Limit(plan, 0, n));
    }

    /** Runs the query; every row of the result. */
    public QueryResult collect() {
        return session.execute(plan);
    }

    /** Runs the query and prints the result as a table. */
    public void show() {
        show(System.out);
    }

    public void show(PrintStream out) {
        out.print(collect().toTable());
    }

    /** The logical, optimized, physical and staged plans. */
    public String explain() {
        return session.explain(plan);
    }
}
