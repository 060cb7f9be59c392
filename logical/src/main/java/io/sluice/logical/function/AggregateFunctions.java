package io.sluice.logical.function;

import static io.sluice.logical.function.ArgKind.ANY;
import static io.sluice.logical.function.ArgKind.BOOLEAN;
import static io.sluice.logical.function.ArgKind.INTEGER;
import static io.sluice.logical.function.ArgKind.NUMBER;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import java.util.List;

/**
 * The aggregate functions, each an {@link AggregateCall}. {@code count(*)} and {@code DISTINCT} are
 * syntax: the front ends make those calls themselves.
 */
final class AggregateFunctions {
    private AggregateFunctions() {
    }

    static void register(Registrar r) {
        simple(r, "sum", AggregateFunction.SUM, NUMBER, "The sum of the values that are not NULL.");
        simple(r, "count", AggregateFunction.COUNT, ANY, "The number of rows whose expr is not NULL (count(*): all rows).");
        simple(r, "min", AggregateFunction.MIN, ANY, "The smallest value.");
        simple(r, "max", AggregateFunction.MAX, ANY, "The largest value.");
        simple(r, "avg|mean", AggregateFunction.AVG, NUMBER, "The mean of the values that are not NULL.");
        simple(r, "stddev|stddev_samp|std", AggregateFunction.STDDEV_SAMP, NUMBER, "The sample standard deviation.");
        simple(r, "stddev_pop", AggregateFunction.STDDEV_POP, NUMBER, "The population standard deviation.");
        simple(r, "variance|var_samp", AggregateFunction.VAR_SAMP, NUMBER, "The sample variance.");
        simple(r, "var_pop", AggregateFunction.VAR_POP, NUMBER, "The population variance.");
        pair(r, "corr", AggregateFunction.CORR, "The Pearson correlation coefficient of the pairs.");
        pair(r, "covar_samp", AggregateFunction.COVAR_SAMP, "The sample covariance of the pairs.");
        pair(r, "covar_pop", AggregateFunction.COVAR_POP, "The population covariance of the pairs.");
        r.aggregate("count_if", Signature.of(1, "expr", BOOLEAN), "The number of rows where expr is true.",
                (name, args, context) -> new AggregateCall(AggregateFunction.COUNT,
                        new Case(List.of(args.get(0)), List.of(Literal.of(1L)), Literal.nullValue())));
        r.aggregate("bool_and|every", Signature.of(1, "expr", BOOLEAN), "Whether expr is true in every row (NULLs skipped).",
                (name, args, context) -> new AggregateCall(AggregateFunction.MIN, args.get(0)));
        r.aggregate("bool_or|some|any", Signature.of(1, "expr", BOOLEAN), "Whether expr is true in some row (NULLs skipped).",
                (name, args, context) -> new AggregateCall(AggregateFunction.MAX, args.get(0)));
        collections(r);
    }

    private static void collections(Registrar r) {
        simple(r, "collect_list|array_agg", AggregateFunction.COLLECT_LIST, ANY,
                "An array of the values that are not NULL, in no fixed order.");
        simple(r, "collect_set", AggregateFunction.COLLECT_SET, ANY,
                "An array of the distinct values that are not NULL, in no fixed order.");
        r.aggregate("approx_count_distinct", Signature.of(1, "expr", ANY, "relativeSD", NUMBER),
                "The approximate number of distinct values (HyperLogLog), with relative standard deviation relativeSD"
                        + " (default 0.05).", (name, args, context) -> new AggregateCall(AggregateFunction.APPROX_COUNT_DISTINCT,
                        args.get(0), null, List.of(constant(name, args, 1, "relativeSD", 0.05))));
        r.aggregate("percentile_approx|approx_percentile", Signature.of(2, "col", NUMBER, "percentage", NUMBER,
                        "accuracy", INTEGER),
                "The smallest value such that percentage of the values are at most it, from a sketch exact up to"
                        + " 2 * accuracy values (default 10000).", (name, args, context) -> new AggregateCall(
                        AggregateFunction.PERCENTILE_APPROX, args.get(0), null, List.of(constant(name, args, 1, "percentage", null),
                        constant(name, args, 2, "accuracy", 10000L))));
        firstLast(r, "first|first_value", AggregateFunction.FIRST, "The value of the first row (skipping NULLs if"
                + " ignoreNulls), in no fixed order.");
        firstLast(r, "last|last_value", AggregateFunction.LAST, "The value of the last row (skipping NULLs if"
                + " ignoreNulls), in no fixed order.");
        r.aggregate("max_by", Signature.of(2, "x", ANY, "y", ANY), "The value of x in the row with the largest y.",
                (name, args, context) -> new AggregateCall(AggregateFunction.MAX_BY, args.get(0), args.get(1)));
        r.aggregate("min_by", Signature.of(2, "x", ANY, "y", ANY), "The value of x in the row with the smallest y.",
                (name, args, context) -> new AggregateCall(AggregateFunction.MIN_BY, args.get(0), args.get(1)));
    }

    private static void firstLast(Registrar r, String names, AggregateFunction function, String description) {
        r.aggregate(names, Signature.of(1, "expr", ANY, "ignoreNulls", BOOLEAN), description,
                (name, args, context) -> new AggregateCall(function, args.get(0), null,
                        List.of(constant(name, args, 1, "ignoreNulls", false))));
    }

    /**
     * Argument {@code i} as a constant ({@code otherwise} when absent; a number or boolean that
     * configures the aggregate), an error naming it when it is not one.
     */
    private static Literal constant(String function, List<Expr> args, int i, String param, Object otherwise) {
        if (i >= args.size()) {
            if (otherwise == null) {
                throw new SluiceException(function + "() needs its " + param + " argument");
            }
            return otherwise instanceof Boolean b ? Literal.of(b) : otherwise instanceof Long l ? Literal.of(l)
                    : Literal.of((Double) otherwise);
        }
        Expr e = args.get(i);
        if (e instanceof Literal l && l.type().kind() == DataType.Kind.DECIMAL && l.value() instanceof Long unscaled) {
            return Literal.of(java.math.BigDecimal.valueOf(unscaled, l.type().scale()).doubleValue()); // 0.01 is DECIMAL(2, 2)
        }
        if (e instanceof Literal l && (l.value() instanceof Number || l.value() instanceof Boolean)) {
            return l.value() instanceof java.math.BigDecimal d ? Literal.of(d.doubleValue()) : l;
        }
        throw new SluiceException(function + "(): argument " + (i + 1) + " (" + param + ") must be a constant, not " + e);
    }

    private static void simple(Registrar r, String names, AggregateFunction function, ArgKind kind, String description) {
        r.aggregate(names, Signature.of(1, "expr", kind), description,
                (name, args, context) -> new AggregateCall(function, args.get(0)));
    }

    private static void pair(Registrar r, String names, AggregateFunction function, String description) {
        r.aggregate(names, Signature.of(2, "expr1", NUMBER, "expr2", NUMBER), description,
                (name, args, context) -> new AggregateCall(function, args.get(0), args.get(1)));
    }
}
