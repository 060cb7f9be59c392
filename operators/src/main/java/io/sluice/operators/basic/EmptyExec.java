package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;

/** No rows, in one partition: what a provably empty input (WHERE false, LIMIT 0) plans to. */
public record EmptyExec(Schema schema, long estimatedRows) implements ExecutionPlan {
    public EmptyExec {
        requireNonNull(schema, "schema is null");
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public EmptyExec(Schema schema) {
        this(schema, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new EmptyExec(schema, rows);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public PlanProperties properties() {
        return PlanProperties.of(new Partitioning.Single());
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.EQUAL;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        return BatchStream.empty();
    }

    @Override
    public String describe() {
        return "EmptyExec";
    }
}
