package io.sluice.physical;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;

/** A leaf with chosen properties, for plan tests; it never runs. */
public record TestSource(String name, Schema schema, PlanProperties properties) implements ExecutionPlan {
    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        throw new UnsupportedOperationException("plan tests only");
    }

    @Override
    public String describe() {
        return "TestSource: " + name;
    }
}
