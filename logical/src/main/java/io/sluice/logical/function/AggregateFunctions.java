package io.sluice.logical.function;

import static io.sluice.logical.function.ArgKind.ANY;
import static io.sluice.logical.function.ArgKind.BOOLEAN;
import static io.sluice.logical.function.ArgKind.NUMBER;

import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Case;
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
