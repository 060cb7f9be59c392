package io.sluice.physical;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.PlanProperties;
import io.sluice.physical.rules.PhysicalConfig;
import io.sluice.physical.rules.PhysicalRule;

/** Runs one physical rule alone and prints the plan before and after, checking idempotence. */
public final class PhysicalRuleTesting {
    public static final PhysicalConfig CONFIG = new PhysicalConfig(4);

    private PhysicalRuleTesting() {
    }

    /** "before:" and "after:" whole printed plans; applying the rule to its own output must change nothing. */
    public static String beforeAfter(PhysicalRule rule, ExecutionPlan plan) {
        ExecutionPlan after = rule.apply(plan, CONFIG);
        ExecutionPlan again = rule.apply(after, CONFIG);
        assertThat(again.explain()).as(rule.name() + " applied to its own output changes nothing")
                .isEqualTo(after.explain());
        return "before:\n" + plan.explain() + "after:\n" + after.explain();
    }

    /** A leaf named {@code name} with INT64 columns {@code columns} and the given properties. */
    public static TestSource source(String name, PlanProperties properties, String... columns) {
        Field[] fields = new Field[columns.length];
        for (int i = 0; i < columns.length; i++) {
            fields[i] = new Field(columns[i], DataType.INT64);
        }
        return new TestSource(name, Schema.of(fields), properties);
    }
}
