package io.sluice.plan.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.physical.CardinalityEffect;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Schema;
import java.util.List;

/**
 * Moves rows into a new partitioning. It marks a stage boundary: the stage cutter replaces it with
 * a shuffle write below and a shuffle read above, so it never runs itself.
 */
public record RepartitionExec(ExecutionPlan input, Partitioning partitioning) implements ExecutionPlan {
    public RepartitionExec {
        requireNonNull(input, "input is null");
        requireNonNull(partitioning, "partitioning is null");
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RepartitionExec(children.get(0), partitioning);
    }

    @Override
    public PlanProperties properties() {
        return PlanProperties.of(partitioning);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.EQUAL;
    }

    @Override
    public String describe() {
        return "RepartitionExec: " + partitioning;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        throw new IllegalStateException("RepartitionExec runs only as a stage boundary; the stage cutter replaces it");
    }
}
