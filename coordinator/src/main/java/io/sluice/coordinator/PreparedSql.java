package io.sluice.coordinator;

import io.sluice.plan.logical.LogicalPlan;
import java.util.Map;

/**
 * A SQL script after its statements ran up to the last one: when that is a query, its plan (not run
 * yet) with the settings the script's {@code SET}s made; otherwise the last statement's result as an
 * Arrow IPC stream. Travels to remote clients Kryo-serialized.
 */
public record PreparedSql(LogicalPlan plan, Map<String, String> settings, byte[] result) {
    public PreparedSql {
        if ((plan == null) == (result == null)) {
            throw new IllegalArgumentException("exactly one of plan and result must be given");
        }
        settings = Map.copyOf(settings);
    }

    static PreparedSql query(LogicalPlan plan, Map<String, String> settings) {
        return new PreparedSql(plan, settings, null);
    }

    static PreparedSql done(byte[] result) {
        return new PreparedSql(null, Map.of(), result);
    }
}
