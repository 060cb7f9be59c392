package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.NestedFunctions;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.WindowPlanner;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * An immutable, lazily evaluated query: each method returns a new DataFrame over a bigger logical
 * plan; {@link #collect()} runs it on the session's cluster. Unknown columns and type errors are
 * reported when the DataFrame is built, not when it runs.
 */
public final class DataFrame {
    private final Session session;
    private final LogicalPlan plan;
    /** {@code SET}s of the SQL script this DataFrame came from; they apply when it runs. */
    private final Map<String, String> settings;
    /** The result when it is already known (a SQL statement that ran at once), else null. */
    private final QueryResult computed;

    DataFrame(Session session, LogicalPlan plan) {
        this(session, plan, Map.of());
    }

    DataFrame(Session session, LogicalPlan plan, Map<String, String> settings) {
        this(session, plan, settings, null);
    }

    private DataFrame(Session session, LogicalPlan plan, Map<String, String> settings, QueryResult computed) {
        this.session = requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.settings = Map.copyOf(settings);
        this.computed = computed;
    }

    /** A DataFrame over a result already computed; building on it plans its rows as constants. */
    static DataFrame ofResult(Session session, QueryResult result) {
        return new DataFrame(session, ResultRelation.of(result), Map.of(), result);
    }

    private DataFrame with(LogicalPlan newPlan) {
        return new DataFrame(session, newPlan, settings);
    }

    public LogicalPlan logicalPlan() {
        return plan;
    }

    public Schema schema() {
        return plan.schema();
    }

    public DataFrame filter(Column predicate) {
        return with(new Filter(plan, NestedFunctions.resolveFieldPaths(predicate.expr(), plan.schema())));
    }

    public DataFrame where(Column predicate) {
        return filter(predicate);
    }

    /** The given columns; window functions among them ({@link Column#over}) are computed first. */
    public DataFrame select(Column... columns) {
        List<Expr> exprs = new ArrayList<>();
        for (Column c : columns) {
            exprs.add(NestedFunctions.resolveFieldPaths(c.expr(), plan.schema()));
        }
        LogicalPlan input = plan;
        int generator = generatorIndex(exprs);
        if (generator >= 0) {
            // explode(c): a Generate below, its new columns in the explode's place
            Expr item = exprs.get(generator);
            ExplodeCall call = (ExplodeCall) Exprs.unalias(item);
            int made = Generate.generatedTypes(call.input(), input.schema()).size();
            List<String> names = item instanceof Alias a ? List.of(a.alias()) : made == 2 ? List.of("key", "value") : List.of("col");
            input = new Generate(input, call.input(), call.outer(), names);
            List<Expr> replaced = new ArrayList<>(exprs.subList(0, generator));
            names.forEach(n -> replaced.add(new io.sluice.logical.expr.Column(n)));
            replaced.addAll(exprs.subList(generator + 1, exprs.size()));
            exprs = replaced;
        }
        if (WindowPlanner.any(exprs)) {
            WindowPlanner windows = WindowPlanner.plan(plan, exprs);
            input = windows.plan();
            exprs = exprs.stream().map(e -> {
                Expr rewritten = windows.rewrite(e);
                return rewritten.name().equals(e.name()) ? rewritten : new Alias(rewritten, e.name());
            }).toList();
        }
        return with(new Projection(input, exprs));
    }

    private static int generatorIndex(List<Expr> exprs) {
        int found = -1;
        for (int i = 0; i < exprs.size(); i++) {
            if (Exprs.unalias(exprs.get(i)) instanceof ExplodeCall) {
                if (found >= 0) {
                    throw new SluiceException("select() takes at most one explode()");
                }
                found = i;
            }
        }
        return found;
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
        return new GroupedData(this, Arrays.stream(keys).map(Column::expr).toList());
    }

    public GroupedData groupBy(String... keys) {
        return groupBy(Arrays.stream(keys).map(Functions::col).toArray(Column[]::new));
    }

    /** A whole-table aggregate, e.g. {@code df.agg(countStar())}. */
    public DataFrame agg(Column... aggregates) {
        return new GroupedData(this, List.of()).agg(aggregates);
    }

    public DataFrame orderBy(SortKey... keys) {
        return with(new Sort(plan, List.of(keys)));
    }

    /** Ascending by each named column. */
    public DataFrame orderBy(String... columns) {
        return orderBy(Arrays.stream(columns).map(c -> Functions.col(c).asc()).toArray(SortKey[]::new));
    }

    public DataFrame limit(long n) {
        return with(new Limit(plan, 0, n));
    }

    /** Runs the query; every row of the result. */
    public QueryResult collect() {
        return computed != null ? computed : session.execute(plan, settings);
    }

    /**
     * Runs the query and returns its rows as the coordinator streams them, as Spark's
     * {@code toLocalIterator}: the first rows arrive while later result tasks still run, this
     * process holds one batch at a time, and {@code sluice.result.max-bytes} (a cap on what
     * {@link #collect()} keeps) does not apply. Close it to stop early (the query is cancelled).
     */
    public RowIterator toLocalIterator() {
        if (computed != null) {
            QueryResult result = computed;
            return new RowIterator(new RowIterator.Source() {
                private boolean done;

                @Override
                public Schema schema() {
                    return result.schema();
                }

                @Override
                public List<List<Object>> nextRows() {
                    if (done) {
                        return null;
                    }
                    done = true;
                    return result.rows();
                }

                @Override
                public void close() {
                }
            });
        }
        return session.stream(plan, settings);
    }

    /** Writes this DataFrame's rows as files: {@code df.write().mode("overwrite").parquet(path)}. */
    public DataFrameWriter write() {
        return new DataFrameWriter(this, SaveMode.ERROR_IF_EXISTS);
    }

    /** A new DataFrame over {@code newPlan}, run with this one's settings (for GroupedData). */
    DataFrame derive(LogicalPlan newPlan) {
        return with(newPlan);
    }

    long writeTo(WriteTarget target) {
        return session.write(plan, settings, target);
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
