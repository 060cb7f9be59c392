package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.BroadcastHint;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Repartition;
import io.sluice.logical.plan.SetOperations;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.WindowPlanner;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An immutable, lazily evaluated query: each method returns a new DataFrame over a bigger logical
 * plan; {@link #collect()} runs it on the session's cluster. Unknown columns and type errors are
 * reported when the DataFrame is built, not when it runs.
 */
public final class DataFrame {
    private static final AtomicLong NEXT_ID = new AtomicLong();

    private final Session session;
    private final LogicalPlan plan;
    /** {@code SET}s of the SQL script this DataFrame came from; they apply when it runs. */
    private final Map<String, String> settings;
    /** The result when it is already known (a SQL statement that ran at once), else null. */
    private final QueryResult computed;
    /** This DataFrame's identity: {@link #col(String)} refers to its columns through it. */
    private final long id;
    /** Where the columns of the DataFrames this one is built from are in it. */
    private final ColumnLineage lineage;
    /** The qualifier of its columns when a join must tell them apart ({@link #alias}, a table name), or null. */
    private final String name;

    DataFrame(Session session, LogicalPlan plan) {
        this(session, plan, Map.of());
    }

    DataFrame(Session session, LogicalPlan plan, Map<String, String> settings) {
        this(session, plan, settings, null, ColumnLineage.NONE, null);
    }

    private DataFrame(Session session, LogicalPlan plan, Map<String, String> settings, QueryResult computed,
            ColumnLineage lineage, String name) {
        this.session = requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.settings = Map.copyOf(settings);
        this.computed = computed;
        this.lineage = requireNonNull(lineage, "lineage is null");
        this.name = name;
        this.id = NEXT_ID.incrementAndGet();
    }

    /** A DataFrame over a result already computed; building on it plans its rows as constants. */
    static DataFrame ofResult(Session session, QueryResult result) {
        return new DataFrame(session, ResultRelation.of(result), Map.of(), result, ColumnLineage.NONE, null);
    }

    /** A DataFrame with the same columns as this one (a filter, sort, limit, ...). */
    private DataFrame with(LogicalPlan newPlan) {
        return new DataFrame(session, newPlan, settings, null, fullLineage(), null);
    }

    /** A DataFrame whose columns are {@code exprs} over this one's. */
    private DataFrame projected(LogicalPlan newPlan, List<Expr> exprs) {
        return new DataFrame(session, newPlan, settings, null, fullLineage().project(exprs, plan.schema(), Map.of()), null);
    }

    /** A DataFrame named {@code tableName}, for the qualifier of its columns in a join. */
    DataFrame named(String tableName) {
        return new DataFrame(session, plan, settings, computed, lineage, tableName);
    }

    /** A join's result, with the lineage of both sides. */
    DataFrame joined(LogicalPlan newPlan, ColumnLineage joinedLineage) {
        return new DataFrame(session, newPlan, settings, null, joinedLineage, null);
    }

    long id() {
        return id;
    }

    /** The qualifier of this DataFrame's columns where a join must tell them apart. */
    String qualifier() {
        return name != null ? name : "df" + id;
    }

    /** The lineage including this DataFrame's own columns. */
    ColumnLineage fullLineage() {
        return lineage.plus(id, plan.schema());
    }

    /**
     * {@code e} over this DataFrame's columns: columns of DataFrames it is built from
     * ({@code other.col("a")}), expression text and functions by name are resolved here.
     */
    Expr resolve(Expr e) {
        return resolveOver(e, plan.schema(), fullLineage());
    }

    Expr resolveOver(Expr e, Schema schema, ColumnLineage over) {
        return ColumnResolver.resolve(e, schema, over, session.isRemote());
    }

    private Expr resolve(Column c) {
        return resolve(c.expr());
    }

    public LogicalPlan logicalPlan() {
        return plan;
    }

    public Schema schema() {
        return plan.schema();
    }

    /** The column {@code name} of this DataFrame (Spark's {@code df("a")}): it stays this DataFrame's after a join. */
    public Column col(String name) {
        if (name.equals("*")) {
            throw new SluiceException("col(\"*\") is not a column; select() with no arguments keeps them all");
        }
        return new Column(new PlanColumn(id, plan.schema().field(name).name()));
    }

    /** The column names, in order. */
    public String[] columns() {
        return plan.schema().names().toArray(String[]::new);
    }

    public DataFrame filter(Column predicate) {
        return with(new Filter(plan, resolve(predicate)));
    }

    /** Rows where the SQL condition {@code condition} holds: {@code filter("a > 1 and b like 'x%'")}. */
    public DataFrame filter(String condition) {
        return filter(Functions.expr(condition));
    }

    public DataFrame where(Column predicate) {
        return filter(predicate);
    }

    public DataFrame where(String condition) {
        return filter(condition);
    }

    /** The given columns; window functions among them ({@link Column#over}) are computed first. */
    public DataFrame select(Column... columns) {
        List<Expr> exprs = new ArrayList<>();
        for (Column c : columns) {
            Expr e = resolve(c);
            if (c.expr() instanceof PlanColumn p && !e.name().equals(p.column())) {
                e = new Alias(e, p.column()); // df1.col("a") after a join: named a again
            }
            exprs.add(e);
        }
        if (!exprs.isEmpty() && exprs.stream().allMatch(Exprs::containsAggregate) && !WindowPlanner.any(exprs)) {
            return new GroupedData(this, List.of()).aggregate(exprs); // select(sum(..)): a whole-table aggregate
        }
        return projected(SelectPlanner.projection(plan, exprs), exprs);
    }

    /** Columns given as SQL expressions: {@code selectExpr("k", "v * 2 AS w", "upper(s)")}; {@code "*"} is every column. */
    public DataFrame selectExpr(String... expressions) {
        List<Column> columns = new ArrayList<>();
        for (String e : expressions) {
            if (e.trim().equals("*")) {
                plan.schema().names().forEach(n -> columns.add(Functions.col(n)));
            } else {
                columns.add(Functions.expr(e));
            }
        }
        return select(columns.toArray(Column[]::new));
    }

    /** Every column, plus {@code column} named {@code name} (replacing a column of that name, in its place). */
    public DataFrame withColumn(String name, Column column) {
        return withColumns(Map.of(name, column));
    }

    /** Every column, plus the given ones (each replacing a column of its name, in its place), in map order. */
    public DataFrame withColumns(Map<String, Column> columns) {
        return ColumnEdits.withColumns(this, columns);
    }

    /** The column {@code existing} renamed {@code newName}; no such column leaves the DataFrame as it is (Spark's rule). */
    public DataFrame withColumnRenamed(String existing, String newName) {
        return withColumnsRenamed(Map.of(existing, newName));
    }

    /** Columns renamed, old name to new; names that are not columns are ignored, as Spark does. */
    public DataFrame withColumnsRenamed(Map<String, String> renames) {
        return ColumnEdits.withColumnsRenamed(this, renames);
    }

    /** Every column but the named ones; names that are not columns are ignored, as Spark does. */
    public DataFrame drop(String... columns) {
        return ColumnEdits.drop(this, columns);
    }

    /** Every column but the given ones ({@code df2.col("a")} after a join drops that side's {@code a}). */
    public DataFrame drop(Column... columns) {
        return ColumnEdits.drop(this, columns);
    }

    /** The same rows with the columns renamed, by position. */
    public DataFrame toDF(String... names) {
        return ColumnEdits.toDF(this, names);
    }

    /** This DataFrame with its columns qualified {@code alias.c}: {@code col("alias.c")} names them, e.g. after a self-join. */
    public DataFrame alias(String alias) {
        io.sluice.logical.plan.SubqueryAlias aliased = new io.sluice.logical.plan.SubqueryAlias(plan, alias);
        Map<String, String> renames = new HashMap<>();
        for (int i = 0; i < plan.schema().size(); i++) {
            renames.put(plan.schema().field(i).name(), aliased.schema().field(i).name());
        }
        return new DataFrame(session, aliased, settings, null, fullLineage().renamed(renames), alias);
    }

    public DataFrame as(String alias) {
        return alias(alias);
    }

    /** Joins as an inner join of every pair of rows (a cross join). */
    public DataFrame join(DataFrame right) {
        return crossJoin(right);
    }

    /** Every left row with every right row. */
    public DataFrame crossJoin(DataFrame right) {
        return Joins.on(this, right, null, JoinType.INNER);
    }

    /** An inner join on the SQL condition {@code condition}, e.g. {@code df1.col("id").equalTo(df2.col("id"))}. */
    public DataFrame join(DataFrame right, Column condition) {
        return join(right, condition, "inner");
    }

    /**
     * A join of type {@code joinType} (Spark's names: inner, cross, outer, full, left, right,
     * left_semi, left_anti, ...) on {@code condition}.
     */
    public DataFrame join(DataFrame right, Column condition, String joinType) {
        return Joins.on(this, right, requireNonNull(condition, "condition is null").expr(), Joins.type(joinType));
    }

    /** An inner join on equal {@code usingColumn}, which is output once. */
    public DataFrame join(DataFrame right, String usingColumn) {
        return join(right, List.of(usingColumn), "inner");
    }

    public DataFrame join(DataFrame right, String usingColumn, String joinType) {
        return join(right, List.of(usingColumn), joinType);
    }

    /** An inner join on equal {@code usingColumns}, each output once. */
    public DataFrame join(DataFrame right, List<String> usingColumns) {
        return join(right, usingColumns, "inner");
    }

    /**
     * A join of type {@code joinType} on equal {@code usingColumns}: each is output once, first (a
     * full join's is the first non-NULL of the two sides), then the other left columns, then the
     * other right ones.
     */
    public DataFrame join(DataFrame right, List<String> usingColumns, String joinType) {
        return Joins.using(this, right, usingColumns, Joins.type(joinType));
    }

    /** The rows of both, duplicates kept, columns matched by position (Spark's {@code union}). */
    public DataFrame union(DataFrame other) {
        return with(SetOperations.union(List.of(plan, other.plan), true));
    }

    public DataFrame unionAll(DataFrame other) {
        return union(other);
    }

    /** As {@link #union}, columns matched by name; every column of this DataFrame must be in {@code other}. */
    public DataFrame unionByName(DataFrame other) {
        return unionByName(other, false);
    }

    /**
     * As {@link #union}, columns matched by name (ignoring case); with {@code allowMissingColumns} a
     * column only one side has is NULL on the other and the other side's own columns come last.
     */
    public DataFrame unionByName(DataFrame other, boolean allowMissingColumns) {
        return with(SetOperations.union(UnionByName.align(plan, other.plan, allowMissingColumns), true));
    }

    /** The distinct rows in both. */
    public DataFrame intersect(DataFrame other) {
        return with(SetOperations.intersectOrExcept(plan, other.plan, true, false));
    }

    /** The rows in both, each as often as it is in both ({@code INTERSECT ALL}). */
    public DataFrame intersectAll(DataFrame other) {
        return with(SetOperations.intersectOrExcept(plan, other.plan, true, true));
    }

    /** The distinct rows of this DataFrame that are not in {@code other} ({@code EXCEPT}). */
    public DataFrame except(DataFrame other) {
        return with(SetOperations.intersectOrExcept(plan, other.plan, false, false));
    }

    /** This DataFrame's rows less {@code other}'s, copy for copy ({@code EXCEPT ALL}). */
    public DataFrame exceptAll(DataFrame other) {
        return with(SetOperations.intersectOrExcept(plan, other.plan, false, true));
    }

    /** The distinct rows. */
    public DataFrame distinct() {
        return with(SetOperations.distinct(plan));
    }

    public DataFrame dropDuplicates() {
        return distinct();
    }

    /** One row per distinct combination of {@code columns}: the first of each group's rows in no set order, as Spark. */
    public DataFrame dropDuplicates(String... columns) {
        return Deduplication.of(this, List.of(columns));
    }

    /** The null-value functions: {@code df.na().fill(0)}, {@code df.na().drop()}, {@code df.na().replace(...)}. */
    public DataFrameNaFunctions na() {
        return new DataFrameNaFunctions(this);
    }

    public DataFrame select(String... columns) {
        return select(Arrays.stream(columns).map(Functions::col).toArray(Column[]::new));
    }

    public GroupedData groupBy(Column... keys) {
        return new GroupedData(this, Arrays.stream(keys).map(this::resolve).toList());
    }

    public GroupedData groupBy(String... keys) {
        return groupBy(Arrays.stream(keys).map(Functions::col).toArray(Column[]::new));
    }

    /** Groups by each prefix of {@code keys} (all of them, then fewer, to none), as SQL's {@code ROLLUP}. */
    public GroupedData rollup(Column... keys) {
        return groupBy(keys).withSets(io.sluice.logical.plan.GroupingSetPlans.rollup(Arrays.stream(keys).map(this::resolve).toList()));
    }

    public GroupedData rollup(String... keys) {
        return rollup(Arrays.stream(keys).map(Functions::col).toArray(Column[]::new));
    }

    /** Groups by every subset of {@code keys}, as SQL's {@code CUBE}. */
    public GroupedData cube(Column... keys) {
        return groupBy(keys).withSets(io.sluice.logical.plan.GroupingSetPlans.cube(Arrays.stream(keys).map(this::resolve).toList()));
    }

    public GroupedData cube(String... keys) {
        return cube(Arrays.stream(keys).map(Functions::col).toArray(Column[]::new));
    }

    /** A whole-table aggregate, e.g. {@code df.agg(countStar())}. */
    public DataFrame agg(Column... aggregates) {
        return new GroupedData(this, List.of()).agg(aggregates);
    }

    public DataFrame orderBy(SortKey... keys) {
        List<SortKey> resolved = new ArrayList<>();
        for (SortKey k : keys) {
            resolved.add(new SortKey(resolve(k.expr()), k.ascending(), k.nullsFirst()));
        }
        return with(new Sort(plan, resolved));
    }

    /** By each column: its order ({@code col("a").desc_nulls_first()}), else ascending with NULLs last. */
    public DataFrame orderBy(Column... columns) {
        return orderBy(Arrays.stream(columns).map(Column::sortKey).toArray(SortKey[]::new));
    }

    /** Ascending by each named column, NULLs last. */
    public DataFrame orderBy(String... columns) {
        return orderBy(Arrays.stream(columns).map(c -> Functions.col(c).sortKey()).toArray(SortKey[]::new));
    }

    public DataFrame sort(Column... columns) {
        return orderBy(columns);
    }

    public DataFrame sort(String... columns) {
        return orderBy(columns);
    }

    public DataFrame limit(long n) {
        return with(new Limit(plan, 0, n));
    }

    /** Every row but the first {@code n} (in the DataFrame's order; sort first for a defined one). */
    public DataFrame offset(long n) {
        return with(new Limit(plan, n, Long.MAX_VALUE));
    }

    /**
     * A random sample: each row kept with probability {@code fraction}, drawn anew on each run. See
     * {@link #sample(double, long)}.
     */
    public DataFrame sample(double fraction) {
        return sample(fraction, new java.util.Random().nextLong());
    }

    /**
     * Each row kept with probability {@code fraction} (0 to 1), without replacement, as Spark's
     * Bernoulli sampling; the same seed over the same partitions keeps the same rows.
     */
    public DataFrame sample(double fraction, long seed) {
        return sample(false, fraction, seed);
    }

    /**
     * As Spark's {@code sample(withReplacement, fraction, seed)}: with replacement each row is kept a
     * number of times drawn from a Poisson distribution of mean {@code fraction} (which may pass 1).
     */
    public DataFrame sample(boolean withReplacement, double fraction, long seed) {
        return with(new io.sluice.logical.plan.Sample(plan, fraction, seed, withReplacement));
    }

    /**
     * Spark's {@code unpivot}: each row once per column of {@code values}, as the {@code ids}, the
     * column's name (under {@code variableColumnName}) and its value (under {@code valueColumnName},
     * of the values' common type); NULL values are kept.
     */
    public DataFrame unpivot(Column[] ids, Column[] values, String variableColumnName, String valueColumnName) {
        return with(io.sluice.logical.plan.Unpivots.plan(plan, resolveAll(ids), resolveAll(values), variableColumnName,
                valueColumnName));
    }

    /** {@link #unpivot(Column[], Column[], String, String)} of every column that is not an id. */
    public DataFrame unpivot(Column[] ids, String variableColumnName, String valueColumnName) {
        return unpivot(ids, new Column[0], variableColumnName, valueColumnName);
    }

    /** Spark's name for {@link #unpivot(Column[], Column[], String, String)}. */
    public DataFrame melt(Column[] ids, Column[] values, String variableColumnName, String valueColumnName) {
        return unpivot(ids, values, variableColumnName, valueColumnName);
    }

    /**
     * The rows moved into {@code partitions} partitions by the hash of {@code columns} (round robin
     * without columns), as Spark's {@code repartition}: an exchange the planner keeps where it is
     * written (the logical {@code Repartition}, as SQL's {@code DISTRIBUTE BY} and hints).
     */
    public DataFrame repartition(int partitions, Column... columns) {
        checkPartitions(partitions);
        return with(new Repartition(plan, resolveAll(columns), partitions));
    }

    /** By the hash of {@code columns} into the session's {@code sluice.shuffle.partitions}. */
    public DataFrame repartition(Column... columns) {
        return with(new Repartition(plan, resolveAll(columns), 0));
    }

    /**
     * At most {@code partitions} partitions. Spark merges partitions without a shuffle; Sluice moves
     * the rows round robin (one exchange), which keeps the count the user asked for.
     */
    public DataFrame coalesce(int partitions) {
        checkPartitions(partitions);
        return with(new Repartition(plan, List.of(), partitions));
    }

    private List<Expr> resolveAll(Column... columns) {
        List<Expr> keys = new ArrayList<>();
        for (Column c : columns) {
            keys.add(resolve(c));
        }
        return keys;
    }

    private static void checkPartitions(int partitions) {
        if (partitions <= 0) {
            throw new SluiceException("the number of partitions must be positive, not " + partitions);
        }
    }

    /**
     * Spark's join and partitioning hints: {@code broadcast} (also {@code broadcastjoin},
     * {@code mapjoin}) makes this side the broadcast side of the joins that read it, even above the
     * broadcast threshold; {@code repartition}/{@code coalesce} with a count are {@link
     * #repartition(int, Column...)}/{@link #coalesce}; the join-strategy hints Sluice has no choice
     * for ({@code merge}, {@code shuffle_hash}, ...) are accepted and leave the plan to the planner.
     */
    public DataFrame hint(String hintName, Object... parameters) {
        switch (hintName.toLowerCase(java.util.Locale.ROOT)) {
            case "broadcast", "broadcastjoin", "mapjoin" -> {
                return with(new BroadcastHint(plan));
            }
            case "coalesce", "repartition" -> {
                if (parameters.length == 0 || !(parameters[0] instanceof Number n)) {
                    throw new SluiceException("hint '" + hintName + "' takes the number of partitions first");
                }
                return hintName.equalsIgnoreCase("coalesce") ? coalesce(n.intValue()) : repartition(n.intValue());
            }
            case "merge", "shuffle_merge", "mergejoin", "shuffle_hash", "shuffle_replicate_nl", "repartition_by_range",
                    "rebalance" -> {
                return this;
            }
            default -> throw new SluiceException("unknown hint '" + hintName + "'; known: broadcast, merge,"
                    + " shuffle_hash, shuffle_replicate_nl, coalesce, repartition, repartition_by_range, rebalance");
        }
    }

    /** The number of rows. */
    public long count() {
        return ((Number) agg(Functions.countStar()).collect().rows().get(0).get(0)).longValue();
    }

    /** The first {@code n} rows. */
    public List<List<Object>> head(int n) {
        return limit(n).collect().rows();
    }

    public List<List<Object>> take(int n) {
        return head(n);
    }

    /** The first row; an empty DataFrame is an error, as Spark's. */
    public List<Object> first() {
        List<List<Object>> rows = head(1);
        if (rows.isEmpty()) {
            throw new SluiceException("first() of an empty DataFrame");
        }
        return rows.get(0);
    }

    /** The last {@code n} rows, in the DataFrame's order (an action, as Spark's {@code tail}). */
    public List<List<Object>> tail(int n) {
        if (n < 0) {
            throw new SluiceException("tail() needs a non-negative count, not " + n);
        }
        List<List<Object>> rows = collect().rows();
        return rows.subList(Math.max(0, rows.size() - n), rows.size());
    }

    public boolean isEmpty() {
        return head(1).isEmpty();
    }

    /**
     * Count, mean, sample standard deviation, min and max of the named columns (every numeric and
     * string column without names), as Spark's {@code describe}: a {@code summary} column, then one
     * string column per described column.
     */
    public DataFrame describe(String... columns) {
        return StatSummary.describe(this, List.of(columns));
    }

    /** The given statistics ({@code count}, {@code mean}, {@code stddev}, {@code min}, {@code max}; all of them without). */
    public DataFrame summary(String... statistics) {
        return StatSummary.summary(this, List.of(statistics));
    }

    /** Names this DataFrame in the session, for SQL ({@code session.sql("select ... from name")}) and {@code session.table(name)}. */
    public void createOrReplaceTempView(String viewName) {
        session.registerView(viewName, plan, true);
    }

    /** As {@link #createOrReplaceTempView}, but an existing view of that name is an error. */
    public void createTempView(String viewName) {
        session.registerView(viewName, plan, false);
    }

    /** The schema as a tree, as Spark prints it. */
    public String schemaString() {
        StringBuilder out = new StringBuilder("root\n");
        for (io.sluice.common.types.Field f : plan.schema().fields()) {
            out.append(" |-- ").append(f.name()).append(": ").append(f.type().toString().toLowerCase(java.util.Locale.ROOT))
                    .append(" (nullable = true)\n");
        }
        return out.toString();
    }

    public void printSchema() {
        System.out.print(schemaString());
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

    /** A new DataFrame over {@code newPlan} (computed from this one), run with this one's settings. */
    DataFrame derive(LogicalPlan newPlan) {
        return new DataFrame(session, newPlan, settings, null, fullLineage().keeping(newPlan.schema()), null);
    }

    Session session() {
        return session;
    }

    /** Writes with this DataFrame's settings; the target carries the writer's Hadoop options, for the write only. */
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

    /** The first {@code rows} rows as a table. */
    public void show(int rows) {
        limit(rows).show();
    }

    /** The logical, optimized, physical and staged plans. */
    public String explain() {
        return session.explain(plan);
    }
}
