package io.sluice.physical.rules;

import static io.sluice.physical.PhysicalRuleTesting.CONFIG;
import static io.sluice.physical.PhysicalRuleTesting.beforeAfter;
import static io.sluice.physical.PhysicalRuleTesting.source;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.physical.KeyedSortedTestOperator;
import io.sluice.physical.TestSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link SanityCheckPlan} alone: it changes nothing, and fails naming operator, child and requirement. */
class SanityCheckPlanTest {
    private static final SanityCheckPlan RULE = new SanityCheckPlan();

    @Test
    void anUnmetDistributionFailsNamingOperatorChildAndRequirement() {
        ExecutionPlan plan = new KeyedSortedTestOperator(source("t", PlanProperties.of(new Partitioning.Unknown(3)), "a", "b"),
                "a", "b");
        assertThatThrownBy(() -> RULE.apply(plan, CONFIG)).isInstanceOf(IllegalStateException.class).hasMessage(
                "operator 'KeyedSortedTestOperator: key=a, sort=b' requires key_partitioned([a]) of child 0 "
                        + "'TestSource: t', which is unknown(3)");
    }

    @Test
    void anUnmetOrderingFailsNamingOperatorChildAndRequirement() {
        ExecutionPlan input = new RepartitionExec(source("t", PlanProperties.of(new Partitioning.Unknown(3)), "a", "b"),
                new Partitioning.Hash(List.of(new Column("a")), 4));
        assertThatThrownBy(() -> RULE.apply(new KeyedSortedTestOperator(input, "a", "b"), CONFIG))
                .hasMessage("operator 'KeyedSortedTestOperator: key=a, sort=b' requires ordering [b ASC NULLS LAST] "
                        + "of child 0 'RepartitionExec: hash([a], 4)', which has []");
    }

    @Test
    void aPlanMeetingEveryRequirementPassesUnchanged() {
        ExecutionPlan input = source("t", PlanProperties.of(new Partitioning.Hash(List.of(new Column("a")), 4),
                List.of(SortKey.asc(new Column("b")))), "a", "b");
        assertThat(beforeAfter(RULE, new KeyedSortedTestOperator(input, "a", "b"))).isEqualTo("""
                before:
                KeyedSortedTestOperator: key=a, sort=b  [hash([a], 4)]
                  TestSource: t  [hash([a], 4), order=b ASC NULLS LAST]
                after:
                KeyedSortedTestOperator: key=a, sort=b  [hash([a], 4)]
                  TestSource: t  [hash([a], 4), order=b ASC NULLS LAST]
                """);
    }
}
