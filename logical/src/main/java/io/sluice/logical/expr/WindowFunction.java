package io.sluice.logical.expr;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import java.util.List;

/**
 * The functions a window computes, with their arities and result types. Ranking and offset
 * functions see the partition and its order; aggregates and {@code first_value}/{@code last_value}
 * see each row's frame.
 */
public enum WindowFunction {
    ROW_NUMBER(0, 0), RANK(0, 0), DENSE_RANK(0, 0), PERCENT_RANK(0, 0), CUME_DIST(0, 0), NTILE(1, 1),
    LAG(1, 3), LEAD(1, 3), FIRST_VALUE(1, 1), LAST_VALUE(1, 1), NTH_VALUE(2, 2),
    SUM(1, 1), COUNT(1, 1), COUNT_STAR(0, 0), MIN(1, 1), MAX(1, 1), AVG(1, 1);

    private final int minArgs;
    private final int maxArgs;

    WindowFunction(int minArgs, int maxArgs) {
        this.minArgs = minArgs;
        this.maxArgs = maxArgs;
    }

    /** The window function of a SQL name (lower case), or null. */
    public static WindowFunction of(String name) {
        return switch (name) {
            case "row_number" -> ROW_NUMBER;
            case "rank" -> RANK;
            case "dense_rank" -> DENSE_RANK;
            case "percent_rank" -> PERCENT_RANK;
            case "cume_dist" -> CUME_DIST;
            case "ntile" -> NTILE;
            case "lag" -> LAG;
            case "lead" -> LEAD;
            case "first_value", "first" -> FIRST_VALUE;
            case "last_value", "last" -> LAST_VALUE;
            case "nth_value" -> NTH_VALUE;
            case "sum" -> SUM;
            case "count" -> COUNT;
            case "min" -> MIN;
            case "max" -> MAX;
            case "avg" -> AVG;
            default -> null;
        };
    }

    /** Whether the result depends on the frame (else only on the partition and its order). */
    public boolean usesFrame() {
        return switch (this) {
            case FIRST_VALUE, LAST_VALUE, NTH_VALUE, SUM, COUNT, COUNT_STAR, MIN, MAX, AVG -> true;
            default -> false;
        };
    }

    /** Whether the result is the value of one chosen row (so IGNORE NULLS can apply). */
    public boolean picksAValue() {
        return switch (this) {
            case LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> true;
            default -> false;
        };
    }

    /** The aggregate this function computes over a frame, or null for a ranking or value function. */
    public AggregateFunction aggregate() {
        return switch (this) {
            case SUM -> AggregateFunction.SUM;
            case COUNT -> AggregateFunction.COUNT;
            case COUNT_STAR -> AggregateFunction.COUNT_STAR;
            case MIN -> AggregateFunction.MIN;
            case MAX -> AggregateFunction.MAX;
            case AVG -> AggregateFunction.AVG;
            default -> null;
        };
    }

    public void checkArity(int args) {
        if (args < minArgs || args > maxArgs) {
            String expected = minArgs == maxArgs ? String.valueOf(minArgs) : minArgs + " to " + maxArgs;
            throw new SluiceException(sqlName() + "() takes " + expected + " argument" + (maxArgs == 1 ? "" : "s")
                    + ", not " + args);
        }
    }

    /** The result type over arguments of {@code argTypes}. */
    public DataType resultType(List<DataType> argTypes) {
        AggregateFunction aggregate = aggregate();
        if (aggregate != null) {
            return aggregate.resultType(argTypes.isEmpty() ? DataType.INT64 : argTypes.get(0));
        }
        return switch (this) {
            case ROW_NUMBER, RANK, DENSE_RANK, NTILE -> DataType.INT64;
            case PERCENT_RANK, CUME_DIST -> DataType.FLOAT64;
            default -> {
                DataType value = argTypes.get(0);
                // lag(NULL, 1, d): the default decides the type
                yield value.kind() == DataType.Kind.NULL && argTypes.size() == 3 ? argTypes.get(2) : value;
            }
        };
    }

    public String sqlName() {
        return this == COUNT_STAR ? "count" : name().toLowerCase();
    }
}
