package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.sink.WriteTarget;
import java.util.Map;

/**
 * A client's request to run a plan (Kryo-serialized in the body of {@code POST /v1/plan}): the
 * plan, the settings to run it with ({@code SET} names), and, for a write, where the result goes
 * (null to return the rows instead).
 */
public record PlanRequest(LogicalPlan plan, Map<String, String> settings, WriteTarget target) {
    public PlanRequest {
        requireNonNull(plan, "plan is null");
        settings = Map.copyOf(settings);
    }
}
