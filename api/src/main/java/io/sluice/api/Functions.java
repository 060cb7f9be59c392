package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.logical.plan.Generate;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;

/** Static constructors for DataFrame expressions: {@code import static io.sluice.api.Functions.*}. */
public final class Functions {
    private Functions() {
    }

    public static Column col(String name) {
        return new Column(new io.sluice.logical.expr.Column(name));
    }

    /** A constant: Integer, Long, Double, BigDecimal, String, Boolean, LocalDate, LocalDateTime or null. */
    public static Column lit(Object value) {
        if (value == null) {
            return new Column(Literal.nullValue());
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return new Column(Literal.of(((Number) value).longValue()));
        }
        if (value instanceof Double || value instanceof Float) {
            return new Column(Literal.of(((Number) value).doubleValue()));
        }
        if (value instanceof BigDecimal d) {
            return new Column(Literal.ofDecimal(d));
        }
        if (value instanceof String s) {
            return new Column(Literal.of(s));
        }
        if (value instanceof Boolean b) {
            return new Column(Literal.of(b));
        }
        if (value instanceof LocalDate d) {
            return new Column(Literal.ofDate(d));
        }
        if (value instanceof java.time.LocalDateTime t) {
            return new Column(Literal.ofTimestamp(io.sluice.common.types.TemporalValues.of(t)));
        }
        throw new SluiceException("cannot make a literal of " + value.getClass().getSimpleName() + " " + value);
    }

    /**
     * A call of a user-defined function: a public class implementing {@link
     * io.sluice.logical.expr.UserFunction} with a public no-argument constructor, called once per row
     * on the workers. Only the class's name crosses the wire, never a user object, plus the class's
     * jar where the workers need it: a class of a submitted job jar ({@link JobClassLoader}: {@code
     * sluice submit}) travels in that jar; on a remote {@code Session.connect} any class travels in
     * the jar it was loaded from (or, loaded from a directory, in a jar of it and its nested classes),
     * and the coordinator must allow it ({@code --allow-job-jars}); on an embedded cluster a class on
     * the class path is loaded from there.
     *
     * @param returnType BIGINT, INT, DOUBLE, BOOLEAN or VARCHAR ({@code DataType.INT64}, ...)
     */
    public static Column udf(Class<? extends io.sluice.logical.expr.UserFunction> function,
            io.sluice.common.types.DataType returnType, Column... args) {
        return new Column(new UdfCall(function, returnType, Arrays.stream(args).map(Column::expr).toList()));
    }

    static Column toColumn(Object value) {
        return value instanceof Column c ? c : lit(value);
    }

    /** A SQL expression, parsed when a DataFrame uses it: {@code expr("upper(s) || '!'")}, {@code expr("v * 2 AS w")}. */
    public static Column expr(String sql) {
        return new Column(new ExprText(sql, null));
    }

    /**
     * The function {@code name} by its SQL (Spark) name, resolved through the one function library SQL
     * uses, once the arguments' types are known: {@code callFunction("date_trunc", lit("month"), col("d"))}.
     * An unknown name is an error naming it when a DataFrame uses the Column.
     */
    public static Column callFunction(String name, Column... args) {
        return new Column(new NamedCall(name, Arrays.stream(args).map(Column::expr).toList(), false));
    }

    /** Spark's name for {@link #callFunction}. */
    public static Column call_function(String name, Column... args) {
        return callFunction(name, args);
    }

    /** Spark's {@code when(condition, value)}: chain {@code .when(...)} and end with {@code .otherwise(...)} (NULL without). */
    public static Column when(Column condition, Object value) {
        return new Column(new io.sluice.logical.expr.Case(List.of(condition.expr()), List.of(toColumn(value).expr()),
                Literal.nullValue()));
    }

    /** The first non-NULL of the columns. */
    public static Column coalesce(Column... columns) {
        if (columns.length == 0) {
            throw new SluiceException("coalesce() needs at least one column");
        }
        Column out = columns[columns.length - 1];
        if (columns.length == 1) {
            return out;
        }
        List<Expr> conditions = new java.util.ArrayList<>();
        List<Expr> results = new java.util.ArrayList<>();
        for (int i = 0; i < columns.length - 1; i++) {
            conditions.add(new io.sluice.logical.expr.Unary(io.sluice.logical.expr.Unary.Op.IS_NOT_NULL, columns[i].expr()));
            results.add(columns[i].expr());
        }
        return new Column(new io.sluice.logical.expr.Case(conditions, results, out.expr()));
    }

    // Higher-order functions over arrays and maps, with Java lambdas as their lambda functions (Spark's names).

    /** Each element's {@code f(x)}: {@code transform(col("a"), x -> x.plus(1))}. */
    public static Column transform(Column array, java.util.function.Function<Column, Column> f) {
        return callFunction("transform", array, LambdaColumns.of(f));
    }

    /** Each element's {@code f(x, index)}, the index 0-based. */
    public static Column transform(Column array, BiFunction<Column, Column, Column> f) {
        return callFunction("transform", array, LambdaColumns.of(f));
    }

    /** The elements for which {@code f(x)} is true. */
    public static Column filter(Column array, java.util.function.Function<Column, Column> f) {
        return callFunction("filter", array, LambdaColumns.of(f));
    }

    /** The elements for which {@code f(x, index)} is true. */
    public static Column filter(Column array, BiFunction<Column, Column, Column> f) {
        return callFunction("filter", array, LambdaColumns.of(f));
    }

    public static Column exists(Column array, java.util.function.Function<Column, Column> f) {
        return callFunction("exists", array, LambdaColumns.of(f));
    }

    public static Column forall(Column array, java.util.function.Function<Column, Column> f) {
        return callFunction("forall", array, LambdaColumns.of(f));
    }

    /** {@code merge(acc, x)} folded over the elements from {@code zero}. */
    public static Column aggregate(Column array, Column zero, BiFunction<Column, Column, Column> merge) {
        return callFunction("aggregate", array, zero, LambdaColumns.of(merge));
    }

    /** {@code merge(acc, x)} folded over the elements from {@code zero}, then {@code finish(acc)}. */
    public static Column aggregate(Column array, Column zero, BiFunction<Column, Column, Column> merge,
            java.util.function.Function<Column, Column> finish) {
        return callFunction("aggregate", array, zero, LambdaColumns.of(merge), LambdaColumns.of(finish));
    }

    /** {@code f(x, y)} of the two arrays' elements pairwise, the shorter padded with NULLs. */
    public static Column zip_with(Column left, Column right, BiFunction<Column, Column, Column> f) {
        return callFunction("zip_with", left, right, LambdaColumns.of(f));
    }

    public static Column map_filter(Column map, BiFunction<Column, Column, Column> f) {
        return callFunction("map_filter", map, LambdaColumns.of(f));
    }

    public static Column transform_keys(Column map, BiFunction<Column, Column, Column> f) {
        return callFunction("transform_keys", map, LambdaColumns.of(f));
    }

    public static Column transform_values(Column map, BiFunction<Column, Column, Column> f) {
        return callFunction("transform_values", map, LambdaColumns.of(f));
    }

    // String, date and number functions by their Spark names, through callFunction: one library with SQL.

    public static Column upper(Column c) { return callFunction("upper", c); }
    public static Column lower(Column c) { return callFunction("lower", c); }
    public static Column trim(Column c) { return callFunction("trim", c); }
    public static Column ltrim(Column c) { return callFunction("ltrim", c); }
    public static Column rtrim(Column c) { return callFunction("rtrim", c); }
    public static Column length(Column c) { return callFunction("length", c); }
    public static Column concat(Column... columns) { return callFunction("concat", columns); }
    public static Column abs(Column c) { return callFunction("abs", c); }
    public static Column floor(Column c) { return callFunction("floor", c); }
    public static Column ceil(Column c) { return callFunction("ceil", c); }
    public static Column round(Column c, int digits) { return callFunction("round", c, lit(digits)); }
    public static Column year(Column c) { return callFunction("year", c); }
    public static Column month(Column c) { return callFunction("month", c); }
    public static Column dayofmonth(Column c) { return callFunction("day", c); }
    public static Column concat_ws(String separator, Column... columns) { return callFunction("concat_ws", prepend(lit(separator), columns)); }
    public static Column regexp_extract(Column c, String regex, int group) { return callFunction("regexp_extract", c, lit(regex), lit(group)); }
    public static Column regexp_replace(Column c, String regex, String replacement) { return callFunction("regexp_replace", c, lit(regex), lit(replacement)); }
    public static Column substring(Column c, int pos, int len) { return c.substr(pos, len); }
    public static Column to_date(Column c) { return callFunction("to_date", c); }
    public static Column to_date(Column c, String format) { return callFunction("to_date", c, lit(format)); }
    public static Column date_format(Column c, String format) { return callFunction("date_format", c, lit(format)); }
    public static Column datediff(Column end, Column start) { return callFunction("datediff", end, start); }
    public static Column date_add(Column c, int days) { return callFunction("date_add", c, lit(days)); }
    public static Column date_sub(Column c, int days) { return callFunction("date_sub", c, lit(days)); }
    public static Column date_trunc(String unit, Column c) { return callFunction("date_trunc", lit(unit), c); }
    public static Column collect_list(Column c) { return callFunction("collect_list", c); }
    public static Column collect_set(Column c) { return callFunction("collect_set", c); }
    public static Column approx_count_distinct(Column c) { return callFunction("approx_count_distinct", c); }

    /** The number of distinct non-NULL values (of the combination, for several columns). */
    public static Column countDistinct(Column c, Column... more) {
        return new Column(new NamedCall("count", Arrays.stream(prepend(c, more)).map(Column::expr).toList(), true));
    }

    public static Column count_distinct(Column c, Column... more) {
        return countDistinct(c, more);
    }

    public static Column sumDistinct(Column c) {
        return new Column(new NamedCall("sum", List.of(c.expr()), true));
    }

    private static Column[] prepend(Column first, Column... rest) {
        Column[] out = new Column[rest.length + 1];
        out[0] = first;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    /** The sort orders of Spark's {@code functions.asc(name)}, ... */
    public static Column asc(String column) { return col(column).asc(); }
    public static Column desc(String column) { return col(column).desc(); }
    public static Column asc_nulls_first(String column) { return col(column).asc_nulls_first(); }
    public static Column asc_nulls_last(String column) { return col(column).asc_nulls_last(); }
    public static Column desc_nulls_first(String column) { return col(column).desc_nulls_first(); }
    public static Column desc_nulls_last(String column) { return col(column).desc_nulls_last(); }

    /** Spark's {@code functions.column(name)}, the same as {@link #col}. */
    public static Column column(String name) {
        return col(name);
    }

    /** Every aggregate: {@code sum(col)}, ... by column name too, as Spark's Java API. */
    public static Column sum(String column) { return sum(col(column)); }
    public static Column avg(String column) { return avg(col(column)); }
    public static Column mean(Column c) { return avg(c); }
    public static Column min(String column) { return min(col(column)); }
    public static Column max(String column) { return max(col(column)); }
    public static Column count(String column) { return column.equals("*") ? countStar() : count(col(column)); }

    /** Each row once per element of the list (or entry of the map) {@code c}, in select(); NULL or empty gives no row. */
    public static Column explode(Column c) {
        return new Column(new ExplodeCall(Generate.Function.EXPLODE, c.expr(), false));
    }

    /** As {@link #explode}, but a NULL or empty value gives one row whose new columns are NULL. */
    public static Column explodeOuter(Column c) {
        return new Column(new ExplodeCall(Generate.Function.EXPLODE, c.expr(), true));
    }

    /** As {@link #explode}, with the element's 0-based position first: columns {@code pos}, {@code col} (or {@code key}, {@code value}). */
    public static Column posexplode(Column c) {
        return new Column(new ExplodeCall(Generate.Function.POSEXPLODE, c.expr(), false));
    }

    /** As {@link #posexplode}, but a NULL or empty value gives one row whose new columns (the position too) are NULL. */
    public static Column posexplodeOuter(Column c) {
        return new Column(new ExplodeCall(Generate.Function.POSEXPLODE, c.expr(), true));
    }

    /** Each row once per struct of the list {@code c}, the struct's fields as columns; a NULL struct gives NULLs. */
    public static Column inline(Column c) {
        return new Column(new ExplodeCall(Generate.Function.INLINE, c.expr(), false));
    }

    /** As {@link #inline}, but a NULL or empty list gives one row whose new columns are NULL. */
    public static Column inlineOuter(Column c) {
        return new Column(new ExplodeCall(Generate.Function.INLINE, c.expr(), true));
    }

    /** A list's element at a 1-based index (negative: from the end), or a map's value at a key; NULL when absent. */
    public static Column elementAt(Column c, Object indexOrKey) {
        return nested(ScalarFunction.Function.ELEMENT_AT, c, toColumn(indexOrKey));
    }

    /** The number of elements of a list or entries of a map. */
    public static Column size(Column c) {
        return nested(ScalarFunction.Function.SIZE, c);
    }

    /** A struct of the columns, its fields named after them. */
    public static Column struct(Column... columns) {
        return nested(ScalarFunction.Function.STRUCT, columns);
    }

    /** A list of the columns' values. */
    public static Column array(Column... columns) {
        return nested(ScalarFunction.Function.ARRAY, columns);
    }

    static Column nested(ScalarFunction.Function function, Column... args) {
        return new Column(new ScalarFunction(function, Arrays.stream(args).map(Column::expr).toList()));
    }

    public static Column sum(Column c) {
        return new Column(new AggregateCall(AggregateFunction.SUM, c.expr()));
    }

    public static Column count(Column c) {
        return new Column(new AggregateCall(AggregateFunction.COUNT, c.expr()));
    }

    public static Column countStar() {
        return new Column(new AggregateCall(AggregateFunction.COUNT_STAR, null));
    }

    public static Column min(Column c) {
        return new Column(new AggregateCall(AggregateFunction.MIN, c.expr()));
    }

    public static Column max(Column c) {
        return new Column(new AggregateCall(AggregateFunction.MAX, c.expr()));
    }

    public static Column avg(Column c) {
        return new Column(new AggregateCall(AggregateFunction.AVG, c.expr()));
    }

    /** Sample standard deviation ({@code stddev_samp}). */
    public static Column stddev(Column c) {
        return new Column(new AggregateCall(AggregateFunction.STDDEV_SAMP, c.expr()));
    }

    public static Column stddevPop(Column c) {
        return new Column(new AggregateCall(AggregateFunction.STDDEV_POP, c.expr()));
    }

    /** Sample variance ({@code var_samp}). */
    public static Column variance(Column c) {
        return new Column(new AggregateCall(AggregateFunction.VAR_SAMP, c.expr()));
    }

    public static Column varPop(Column c) {
        return new Column(new AggregateCall(AggregateFunction.VAR_POP, c.expr()));
    }

    public static Column corr(Column y, Column x) {
        return new Column(new AggregateCall(AggregateFunction.CORR, y.expr(), x.expr()));
    }

    public static Column covarSamp(Column y, Column x) {
        return new Column(new AggregateCall(AggregateFunction.COVAR_SAMP, y.expr(), x.expr()));
    }

    public static Column covarPop(Column y, Column x) {
        return new Column(new AggregateCall(AggregateFunction.COVAR_POP, y.expr(), x.expr()));
    }

    // Window functions: each is computed over the whole input unless given a window with over().

    public static Column rowNumber() {
        return window(WindowFunction.ROW_NUMBER);
    }

    public static Column rank() {
        return window(WindowFunction.RANK);
    }

    public static Column denseRank() {
        return window(WindowFunction.DENSE_RANK);
    }

    public static Column percentRank() {
        return window(WindowFunction.PERCENT_RANK);
    }

    public static Column cumeDist() {
        return window(WindowFunction.CUME_DIST);
    }

    public static Column ntile(int buckets) {
        return window(WindowFunction.NTILE, lit(buckets));
    }

    public static Column lag(Column c, int offset) {
        return window(WindowFunction.LAG, c, lit(offset));
    }

    /** The value {@code offset} rows before, else {@code defaultValue} (a Column or a constant). */
    public static Column lag(Column c, int offset, Object defaultValue) {
        return window(WindowFunction.LAG, c, lit(offset), toColumn(defaultValue));
    }

    public static Column lead(Column c, int offset) {
        return window(WindowFunction.LEAD, c, lit(offset));
    }

    /** The value {@code offset} rows after, else {@code defaultValue} (a Column or a constant). */
    public static Column lead(Column c, int offset, Object defaultValue) {
        return window(WindowFunction.LEAD, c, lit(offset), toColumn(defaultValue));
    }

    public static Column firstValue(Column c) {
        return window(WindowFunction.FIRST_VALUE, c);
    }

    public static Column lastValue(Column c) {
        return window(WindowFunction.LAST_VALUE, c);
    }

    /** The frame's first value, skipping NULLs when {@code ignoreNulls} (Spark's {@code first(c, true)}). */
    public static Column firstValue(Column c, boolean ignoreNulls) {
        return new Column(new WindowCall(WindowFunction.FIRST_VALUE, List.of(c.expr()), List.of(), List.of(),
                WindowFrame.WHOLE_PARTITION, ignoreNulls));
    }

    /** The frame's last value, skipping NULLs when {@code ignoreNulls}: a forward fill over a running frame. */
    public static Column lastValue(Column c, boolean ignoreNulls) {
        return new Column(new WindowCall(WindowFunction.LAST_VALUE, List.of(c.expr()), List.of(), List.of(),
                WindowFrame.WHOLE_PARTITION, ignoreNulls));
    }

    private static Column window(WindowFunction function, Column... args) {
        List<Expr> exprs = Arrays.stream(args).map(Column::expr).toList();
        return new Column(new WindowCall(function, exprs, List.of(), List.of(), WindowFrame.WHOLE_PARTITION));
    }
}
