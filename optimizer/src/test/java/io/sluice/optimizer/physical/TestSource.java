package io.sluice.optimizer.physical;

import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Schema;
import java.util.List;

/** A leaf with chosen properties, for plan tests; it never runs. */
record TestSource(String name, Schema schema, PlanProperties properties) implements ExecutionPlan {
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
