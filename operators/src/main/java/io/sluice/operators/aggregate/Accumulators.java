package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;

/** Chooses the {@link Accumulator} of an aggregate function by the function and its argument's type. */
final class Accumulators {
    private Accumulators() {
    }

    /**
     * The accumulator of {@code call} over {@code argType} (and {@code secondType}, the second
     * argument's, in the partial phase; null in the final one).
     */
    static Accumulator create(AggregateCall call, DataType argType, DataType secondType) {
        AggregateFunction function = call.function();
        String expression = call.toString();
        return switch (function) {
            case COUNT -> new CountAccumulator(false);
            case COUNT_STAR -> new CountAccumulator(true);
            case SUM -> argType.kind() == Kind.FLOAT64 ? new SumDoubleAccumulator(false)
                    : new SumLongAccumulator(function.resultType(argType), false, expression);
            case AVG -> argType.kind() == Kind.FLOAT64 ? new SumDoubleAccumulator(true)
                    : new SumLongAccumulator(AggregateFunction.SUM.resultType(argType), true, expression);
            case MIN, MAX -> new MinMaxAccumulator(argType, function == AggregateFunction.MIN);
            case SINGLE_VALUE -> new SingleValueAccumulator(argType, expression);
            case STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP -> new Moments(function);
            case CORR, COVAR_SAMP, COVAR_POP -> new CoMoments(function);
            case COLLECT_LIST, COLLECT_SET -> new CollectAccumulator(argType, function == AggregateFunction.COLLECT_SET);
            case APPROX_COUNT_DISTINCT -> new ApproxDistinctAccumulator(((Number) call.option(0, 0.05)).doubleValue());
            case PERCENTILE_APPROX -> new PercentileAccumulator(argType, ((Number) call.option(0, 0.5)).doubleValue(),
                    ((Number) call.option(1, 10000L)).longValue());
            case FIRST, LAST -> new FirstLastAccumulator(argType, function == AggregateFunction.LAST,
                    (Boolean) call.option(0, false));
            case MAX_BY, MIN_BY -> new ExtremeByAccumulator(argType, secondType, function == AggregateFunction.MAX_BY);
        };
    }
}
