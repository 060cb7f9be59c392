package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.GroupingSetPlans;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.sql.SqlExpressions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A DataFrame grouped by keys (or by grouping sets: {@code rollup}, {@code cube}), maybe pivoted,
 * waiting for its aggregates.
 */
public final class GroupedData {
    private final DataFrame input;
    private final List<Expr> keys;
    /** The grouping sets of a rollup or cube, else null (one set: the keys). */
    private final List<List<Expr>> sets;
    /** The pivot column, resolved, else null. */
    private final Expr pivot;
    private final List<Object> pivotValues;

    GroupedData(DataFrame input, List<Expr> keys) {
        this(input, keys, null, null, List.of());
    }

    private GroupedData(DataFrame input, List<Expr> keys, List<List<Expr>> sets, Expr pivot, List<Object> pivotValues) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(keys);
        this.sets = sets == null ? null : List.copyOf(sets);
        this.pivot = pivot;
        this.pivotValues = java.util.Collections.unmodifiableList(new ArrayList<>(pivotValues));
    }

    GroupedData withSets(List<List<Expr>> groupingSets) {
        return new GroupedData(input, keys, groupingSets, pivot, pivotValues);
    }

    /**
     * One output column per value of {@code column} (its distinct values, sorted, found by running a
     * query now, as Spark does) and aggregate: {@code groupBy("k").pivot("p").agg(sum("v"))}.
     */
    public GroupedData pivot(String column) {
        Expr p = input.resolve(Functions.col(column).expr());
        List<Object> values = new ArrayList<>();
        for (List<Object> row : input.select(new Column(p)).distinct().orderBy(new Column(p).asc_nulls_first())
                .collect().rows()) {
            values.add(row.get(0));
        }
        return pivot(column, values);
    }

    /** As {@link #pivot(String)} over the given values only, in their order. */
    public GroupedData pivot(String column, List<?> values) {
        if (sets != null) {
            throw new SluiceException("pivot() applies to groupBy(), not to rollup() or cube()");
        }
        return new GroupedData(input, keys, null, input.resolve(Functions.col(column).expr()), new ArrayList<>(values));
    }

    /** Output: the keys, then one column per aggregate (named by {@code as}, else by its SQL text). */
    public DataFrame agg(Column... aggregates) {
        return aggregate(Arrays.stream(aggregates).map(c -> input.resolve(c.expr())).toList());
    }

    /** Spark's {@code agg(Map("v" -> "sum", ...))}: column name to aggregate name (sum, avg, mean, min, max, count). */
    public DataFrame agg(Map<String, String> aggregates) {
        List<Column> columns = new ArrayList<>();
        aggregates.forEach((column, function) -> columns.add(named(function, column)));
        return agg(columns.toArray(Column[]::new));
    }

    private static Column named(String function, String column) {
        Column c = Functions.col(column);
        Column call = switch (function.toLowerCase(Locale.ROOT)) {
            case "sum" -> Functions.sum(c);
            case "avg", "mean" -> Functions.avg(c);
            case "min" -> Functions.min(c);
            case "max" -> Functions.max(c);
            case "count" -> column.equals("*") ? Functions.countStar() : Functions.count(c);
            default -> throw new SluiceException("unknown aggregate '" + function + "' for column '" + column
                    + "'; known: sum, avg, mean, min, max, count");
        };
        return call.as(function.toLowerCase(Locale.ROOT) + "(" + column + ")");
    }

    /** The number of rows of each group, as a column {@code count}. */
    public DataFrame count() {
        return agg(Functions.countStar().as("count"));
    }

    public DataFrame sum(String... columns) {
        return each("sum", columns);
    }

    public DataFrame avg(String... columns) {
        return each("avg", columns);
    }

    public DataFrame mean(String... columns) {
        return each("avg", columns);
    }

    public DataFrame min(String... columns) {
        return each("min", columns);
    }

    public DataFrame max(String... columns) {
        return each("max", columns);
    }

    /** {@code function} of each named column, or of every numeric column when none is named. */
    private DataFrame each(String function, String... columns) {
        List<String> names = new ArrayList<>(Arrays.asList(columns));
        if (names.isEmpty()) {
            for (Field f : input.schema().fields()) {
                if (f.type().kind() == DataType.Kind.INT32 || f.type().kind() == DataType.Kind.INT64
                        || f.type().kind() == DataType.Kind.FLOAT64 || f.type().kind() == DataType.Kind.DECIMAL) {
                    names.add(f.name());
                }
            }
        }
        return agg(names.stream().map(n -> named(function, n)).toArray(Column[]::new));
    }

    /** The aggregation of resolved aggregate expressions. */
    DataFrame aggregate(List<Expr> aggregates) {
        LogicalPlan plan = input.logicalPlan();
        if (sets == null && pivot == null && AggregateExpressions.needed(aggregates)) {
            return input.derive(AggregateExpressions.split(aggregates).plan(calls -> SqlExpressions.aggregate(plan, keys, calls),
                    keys.size()));
        }
        List<Expr> calls = pivot == null ? aggregates : pivoted(aggregates);
        if (sets != null) {
            return input.derive(GroupingSetPlans.plan(plan, keys, sets, calls, List.of(),
                    (set, c) -> SqlExpressions.aggregate(plan, set, c)));
        }
        return input.derive(SqlExpressions.aggregate(plan, keys, calls));
    }

    /** Each aggregate once per pivot value, over the rows with that value only. */
    private List<Expr> pivoted(List<Expr> aggregates) {
        List<Expr> out = new ArrayList<>();
        for (Object value : pivotValues) {
            Expr matches = Functions.col("p").eqNullSafe(value).expr();
            matches = Exprs.transformUp(matches, e -> e instanceof io.sluice.logical.expr.Column c && c.column().equals("p")
                    ? pivot : e);
            for (Expr a : aggregates) {
                if (!(Exprs.unalias(a) instanceof AggregateCall call)) {
                    throw new SluiceException("pivot needs aggregate functions, not " + a);
                }
                AggregateCall only = call.function() == AggregateFunction.COUNT_STAR
                        ? new AggregateCall(AggregateFunction.COUNT, conditional(matches, Literal.of(1L)))
                        : new AggregateCall(call.function(), conditional(matches, call.argument()),
                                call.second() == null ? null : conditional(matches, call.second()));
                String label = String.valueOf(value);
                out.add(new Alias(only, aggregates.size() == 1 ? label : label + "_" + a.name()));
            }
        }
        return out;
    }

    private static Expr conditional(Expr condition, Expr value) {
        return new Case(List.of(condition), List.of(value), Literal.nullValue());
    }
}
