package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Statistics;
import java.util.List;

/**
 * Moves the input's rows into {@code partitionCount} partitions (0: the session's shuffle
 * partitions), by the hash of {@code keys}, or round robin without keys: what the user asked for
 * ({@code DISTRIBUTE BY}, {@code CLUSTER BY}, the {@code REPARTITION} and {@code COALESCE} hints), so
 * the planner keeps it where it was written.
 */
public record Repartition(LogicalPlan input, List<Expr> keys, int partitionCount) implements LogicalPlan {
    /** The largest count a query may ask for, as {@code sluice.shuffle.partitions} allows. */
    public static final int MAX_PARTITIONS = 10_000;

    public Repartition {
        requireNonNull(input, "input is null");
        keys = List.copyOf(keys);
        if (partitionCount < 0 || partitionCount > MAX_PARTITIONS) {
            throw new SluiceException("a repartition needs 1 to " + MAX_PARTITIONS + " partitions, not " + partitionCount);
        }
        for (Expr k : keys) {
            TypeRules.requireKeyable("a partitioning key", k, k.type(input.schema()));
        }
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Repartition(children.get(0), keys, partitionCount);
    }

    @Override
    public List<Expr> expressions() {
        return keys;
    }

    @Override
    public String describe() {
        return "Repartition: " + (keys.isEmpty() ? "round robin" : "hash " + keys)
                + (partitionCount == 0 ? "" : ", partitions=" + partitionCount);
    }

    @Override
    public Statistics statistics(StatisticsContext context) {
        return context.of(input);
    }
}
