package io.sluice.plan.expr;

import io.sluice.plan.SluiceException;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.DataType.Kind;

/** The aggregate functions, with their result types. */
public enum AggregateFunction {
    SUM, COUNT, COUNT_STAR, MIN, MAX, AVG;

    public DataType resultType(DataType arg) {
        return switch (this) {
            case COUNT, COUNT_STAR -> DataType.INT64;
            case MIN, MAX -> arg;
            case SUM -> switch (arg.kind()) {
                case INT32, INT64, NULL -> DataType.INT64;
                case DECIMAL -> DataType.decimal(DataType.MAX_LONG_DECIMAL_PRECISION, arg.scale());
                case FLOAT64 -> DataType.FLOAT64;
                default -> throw new SluiceException("sum() needs a numeric argument, not " + arg);
            };
            case AVG -> {
                if (!arg.isNumeric() && arg.kind() != Kind.NULL) {
                    throw new SluiceException("avg() needs a numeric argument, not " + arg);
                }
                yield DataType.FLOAT64;
            }
        };
    }

    public String sqlName() {
        return this == COUNT_STAR ? "count" : name().toLowerCase();
    }
}
