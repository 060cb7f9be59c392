package io.sluice.logical.expr;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;

/**
 * The aggregate functions, with their result types. {@code SINGLE_VALUE} is not SQL: it is the value
 * of a scalar subquery per group of correlation values, the group's one value (NULL over no rows),
 * and an error when a group has more than one row, as a scalar subquery returning several rows is.
 */
public enum AggregateFunction {
    SUM, COUNT, COUNT_STAR, MIN, MAX, AVG,
    /** A scalar subquery's only value per group (more than one row is an error). */
    SINGLE_VALUE,
    /** Sample and population standard deviation and variance of one numeric argument. */
    STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP,
    /** Correlation and sample and population covariance of two numeric arguments {@code (y, x)}. */
    CORR, COVAR_SAMP, COVAR_POP,
    /** A group's values that are not NULL, as an array (a set: without repeats). */
    COLLECT_LIST, COLLECT_SET,
    /** HyperLogLog estimate of the distinct values; option: the relative standard deviation. */
    APPROX_COUNT_DISTINCT,
    /** A value at a percentile from a mergeable sketch; options: the percentage and the accuracy. */
    PERCENTILE_APPROX,
    /** The first (last) row's value; option: whether NULLs are skipped. */
    FIRST, LAST,
    /** The value of the first argument in the row whose second is largest (smallest). */
    MAX_BY, MIN_BY;

    /** How many arguments the function takes (count(*) none). */
    public int arity() {
        return switch (this) {
            case COUNT_STAR -> 0;
            case CORR, COVAR_SAMP, COVAR_POP, MAX_BY, MIN_BY -> 2;
            default -> 1;
        };
    }

    /** The statistics functions, computed from a running count, mean and sum of squared deviations. */
    public boolean isMoment() {
        return ordinal() >= STDDEV_SAMP.ordinal() && ordinal() <= COVAR_POP.ordinal();
    }

    public DataType resultType(DataType arg) {
        return switch (this) {
            case COUNT, COUNT_STAR -> DataType.INT64;
            case MIN, MAX -> {
                TypeRules.requireKeyable("the argument of " + sqlName() + "()", "a value", arg);
                yield arg;
            }
            case SINGLE_VALUE, FIRST, LAST, MAX_BY, MIN_BY -> arg;
            case COLLECT_LIST, COLLECT_SET -> DataType.list(arg.kind() == Kind.NULL ? DataType.INT32 : arg);
            case APPROX_COUNT_DISTINCT -> DataType.INT64;
            case PERCENTILE_APPROX -> {
                if (!arg.isNumeric() && !arg.isTemporal() && arg.kind() != Kind.NULL) {
                    throw new SluiceException("percentile_approx() needs a number, date or timestamp, not " + arg.sqlName());
                }
                yield arg.kind() == Kind.NULL ? DataType.FLOAT64 : arg;
            }
            case SUM -> switch (arg.kind()) {
                case INT32, INT64, NULL -> DataType.INT64;
                // Spark's sum type: ten more integer digits, at most 38 (DuckDB's is always 38)
                case DECIMAL -> DataType.decimal(Math.min(DataType.MAX_DECIMAL_PRECISION, arg.precision() + 10), arg.scale());
                case FLOAT64 -> DataType.FLOAT64;
                default -> throw new SluiceException("sum() needs a numeric argument, not " + arg);
            };
            case AVG, STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP, CORR, COVAR_SAMP, COVAR_POP -> {
                if (!arg.isNumeric() && arg.kind() != Kind.NULL) {
                    throw new SluiceException(sqlName() + "() needs a numeric argument, not " + arg);
                }
                yield DataType.FLOAT64;
            }
        };
    }

    public String sqlName() {
        return this == COUNT_STAR ? "count" : name().toLowerCase();
    }
}
