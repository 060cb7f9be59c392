package io.sluice.plan.expr;

import io.sluice.plan.SluiceException;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.DataType.Kind;

/**
 * The aggregate functions, with their result types. {@code SINGLE_VALUE} is not SQL: it is the value
 * of a scalar subquery per group of correlation values, the group's one value (NULL over no rows),
 * and an error when a group has more than one row, as a scalar subquery returning several rows is.
 */
public enum AggregateFunction {
    SUM, COUNT, COUNT_STAR, MIN, MAX, AVG, SINGLE_VALUE;

    public DataType resultType(DataType arg) {
        return switch (this) {
            case COUNT, COUNT_STAR -> DataType.INT64;
            case MIN, MAX, SINGLE_VALUE -> arg;
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
