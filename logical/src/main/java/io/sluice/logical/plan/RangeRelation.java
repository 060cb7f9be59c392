package io.sluice.logical.plan;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.math.BigInteger;
import java.util.List;

/**
 * The numbers {@code start, start + step, …} up to {@code end} (exclusive) as one BIGINT column
 * {@code id}, as Spark's {@code spark.range} and SQL {@code range(…)}: made where it is read, in
 * {@code partitions} parallel parts (0: the cluster's default), so its size costs no plan space.
 * Its statistics are exact, so joins against it are sized right. A step of 0 and a count beyond
 * a BIGINT are refused here, when the plan is built.
 */
public record RangeRelation(long start, long end, long step, int partitions) implements LogicalPlan {
    public static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64));
    /** Each partition is a task: a bound that keeps a typo from planning billions of them. */
    public static final int MAX_PARTITIONS = 10_000; // as sluice.shuffle.partitions

    public RangeRelation {
        if (step == 0) {
            throw new SluiceException("range(" + start + ", " + end + ", " + step + "): the step must not be 0");
        }
        if (partitions < 0 || partitions > MAX_PARTITIONS) {
            throw new SluiceException("range(" + start + ", " + end + ", " + step + ", " + partitions
                    + "): the number of partitions must be between 1 and " + MAX_PARTITIONS);
        }
        count(start, end, step);
    }

    /** The number of values: {@code ceil((end - start) / step)}, at least 0; refused when over a BIGINT. */
    public static long count(long start, long end, long step) {
        BigInteger span = BigInteger.valueOf(end).subtract(BigInteger.valueOf(start));
        BigInteger[] qr = span.divideAndRemainder(BigInteger.valueOf(step));
        BigInteger n = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
        if (n.signum() <= 0) {
            return 0;
        }
        if (n.bitLength() > 63) {
            throw new SluiceException("range(" + start + ", " + end + ", " + step + ") has " + n
                    + " values, more than a BIGINT counts");
        }
        return n.longValueExact();
    }

    public long count() {
        return count(start, end, step);
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of();
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        if (!children.isEmpty()) {
            throw new IllegalArgumentException("a range has no children");
        }
        return this;
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "Range: start=" + start + " end=" + end + " step=" + step
                + (partitions == 0 ? "" : " partitions=" + partitions);
    }

    /** Exact: the count, every value distinct, none NULL, the first and last value as the bounds. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        long n = count();
        ColumnStatistics id;
        if (n == 0) {
            id = new ColumnStatistics(Estimate.exact(0), Estimate.exact(0), null, null, Estimate.Precision.ABSENT,
                    ColumnStatistics.nominalWidth(DataType.INT64));
        } else {
            long last = start + (n - 1) * step;
            id = new ColumnStatistics(Estimate.exact(n), Estimate.exact(0), Math.min(start, last), Math.max(start, last),
                    Estimate.Precision.EXACT, ColumnStatistics.nominalWidth(DataType.INT64));
        }
        return Statistics.of(Estimate.exact(n), List.of(id));
    }
}
