package io.sluice.operators.basic;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;

/**
 * UNION ALL: the partitions of every input, one after another (input 0's partitions first). The
 * inputs must have identical schemas; the planner aliases and casts them to the output's.
 */
public record UnionExec(List<ExecutionPlan> inputs, long estimatedRows) implements ExecutionPlan {
    public UnionExec {
        inputs = List.copyOf(inputs);
        if (inputs.size() < 2) {
            throw new IllegalArgumentException("a union needs at least two inputs");
        }
        Schema first = inputs.get(0).schema();
        for (ExecutionPlan input : inputs) {
            if (!input.schema().equals(first)) {
                throw new IllegalArgumentException("union inputs differ: " + first + " and " + input.schema());
            }
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public UnionExec(List<ExecutionPlan> inputs) {
        this(inputs, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new UnionExec(inputs, rows);
    }

    @Override
    public Schema schema() {
        return inputs.get(0).schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return inputs;
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new UnionExec(children).withEstimatedRows(estimatedRows);
    }

    @Override
    public PlanProperties properties() {
        int total = 0;
        for (ExecutionPlan input : inputs) {
            total += input.properties().partitioning().partitionCount();
        }
        return PlanProperties.of(total == 1 ? new Partitioning.Single() : new Partitioning.Unknown(total));
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.GREATER_EQUAL;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        int p = partition;
        for (ExecutionPlan input : inputs) {
            int count = input.properties().partitioning().partitionCount();
            if (p < count) {
                return input.execute(p, context);
            }
            p -= count;
        }
        throw new IllegalArgumentException("union has no partition " + partition);
    }

    @Override
    public String describe() {
        return "UnionExec";
    }
}
