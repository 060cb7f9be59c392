package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Orders the rows of each partition by {@code keys}, never across partitions (Spark's {@code SORT BY}
 * and the sort half of {@code CLUSTER BY}); the input's partitioning stays.
 */
public record SortWithinPartitions(LogicalPlan input, List<SortKey> keys) implements LogicalPlan {
    public SortWithinPartitions {
        requireNonNull(input, "input is null");
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("sort needs a key");
        }
        for (SortKey k : keys) {
            TypeRules.requireKeyable("a sort key", k.expr(), k.expr().type(input.schema()));
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
        return new SortWithinPartitions(children.get(0), keys);
    }

    @Override
    public List<Expr> expressions() {
        List<Expr> out = new ArrayList<>();
        keys.forEach(k -> out.add(k.expr()));
        return out;
    }

    @Override
    public String describe() {
        return "SortWithinPartitions: " + keys.stream().map(SortKey::toString).collect(Collectors.joining(", "));
    }

    @Override
    public Statistics statistics(StatisticsContext context) {
        return context.of(input);
    }
}
