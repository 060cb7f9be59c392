package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.logical.expr.AggregateFunction;

/** Chooses the {@link Accumulator} of an aggregate function by the function and its argument's type. */
final class Accumulators {
    private Accumulators() {
    }

    /** The accumulator of {@code function} over {@code argType}; {@code expression} names it in errors. */
    static Accumulator create(AggregateFunction function, DataType argType, String expression) {
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
        };
    }
}
