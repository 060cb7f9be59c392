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
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

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
     * on the workers. When the class comes from a submitted job jar ({@link JobClassLoader}: {@code
     * sluice submit}), the jar travels with the tasks and each worker loads the class from it; a
     * class on the cluster's own class path (an embedded cluster) is loaded from there. Only the
     * class's name crosses the wire, never a user object. Not available through a remote
     * {@code Session.connect} (the client plan format has no user functions).
     *
     * @param returnType BIGINT, INT, DOUBLE, BOOLEAN or VARCHAR ({@code DataType.INT64}, ...)
     */
    public static Column udf(Class<? extends io.sluice.logical.expr.UserFunction> function,
            io.sluice.common.types.DataType returnType, Column... args) {
        io.sluice.logical.expr.UserJar jar = function.getClassLoader() instanceof JobClassLoader job ? job.jar() : null;
        return new Column(new io.sluice.logical.expr.UserFunctionCall(function.getSimpleName().toLowerCase(java.util.Locale.ROOT),
                function.getName(), jar, java.util.Arrays.stream(args).map(Column::expr).toList(), returnType));
    }

    static Column toColumn(Object value) {
        return value instanceof Column c ? c : lit(value);
    }

    /** Each row once per element of the list (or entry of the map) {@code c}, in select(); NULL or empty gives no row. */
    public static Column explode(Column c) {
        return new Column(new ExplodeCall(c.expr(), false));
    }

    /** As {@link #explode}, but a NULL or empty value gives one row whose new columns are NULL. */
    public static Column explodeOuter(Column c) {
        return new Column(new ExplodeCall(c.expr(), true));
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
