package io.sluice.physical.rules;

import static io.sluice.physical.PhysicalRuleTesting.beforeAfter;
import static io.sluice.physical.PhysicalRuleTesting.source;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.basic.LimitExec;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.sort.SortExec;
import io.sluice.physical.TestSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LimitPushdown} alone, on plans that already have their exchanges. */
class LimitPushdownTest {
    private static final LimitPushdown RULE = new LimitPushdown();

    private static ExecutionPlan t() {
        return source("t", PlanProperties.of(new Partitioning.Unknown(3)), "a", "b");
    }

    private static ExecutionPlan gathered(ExecutionPlan input) {
        return new RepartitionExec(input, new Partitioning.Single());
    }

    @Test
    void limitOverAGlobalSortMakesItATopKAndPutsATopKBelowTheExchange() {
        ExecutionPlan sort = new SortExec(gathered(t()), List.of(SortKey.desc(new Column("b"))), SortExec.NO_FETCH, false);
        assertThat(beforeAfter(RULE, new LimitExec(sort, 0, 10, true))).isEqualTo("""
                before:
                GlobalLimitExec: fetch=10  [single, order=b DESC NULLS LAST]
                  SortExec: [b DESC NULLS LAST]  [single, order=b DESC NULLS LAST]
                    RepartitionExec: single  [single]
                      TestSource: t  [unknown(3)]
                after:
                SortExec: TopK(fetch=10), [b DESC NULLS LAST]  [single, order=b DESC NULLS LAST]
                  RepartitionExec: single  [single]
                    SortExec: TopK(fetch=10), [b DESC NULLS LAST], preserve_partitioning  [unknown(3), order=b DESC NULLS LAST]
                      TestSource: t  [unknown(3)]
                """);
    }

    @Test
    void limitAboveARepartitionBecomesALocalLimitBelowIt() {
        assertThat(beforeAfter(RULE, new LimitExec(gathered(t()), 5, 10, true))).isEqualTo("""
                before:
                GlobalLimitExec: fetch=10, skip=5  [single]
                  RepartitionExec: single  [single]
                    TestSource: t  [unknown(3)]
                after:
                GlobalLimitExec: fetch=10, skip=5  [single]
                  RepartitionExec: single  [single]
                    LocalLimitExec: fetch=15  [unknown(3)]
                      TestSource: t  [unknown(3)]
                """);
    }

    @Test
    void aFilterStopsTheLimitSinceFewerInputRowsWouldChangeItsOutput() {
        ExecutionPlan filter = new FilterExec(gathered(t()), new Binary(BinaryOp.GT, new Column("a"), Literal.of(1L)));
        assertThat(beforeAfter(RULE, new LimitExec(filter, 0, 10, true))).isEqualTo("""
                before:
                GlobalLimitExec: fetch=10  [single]
                  FilterExec: (a > 1)  [single]
                    RepartitionExec: single  [single]
                      TestSource: t  [unknown(3)]
                after:
                GlobalLimitExec: fetch=10  [single]
                  FilterExec: (a > 1)  [single]
                    RepartitionExec: single  [single]
                      TestSource: t  [unknown(3)]
                """);
    }

    @Test
    void anAggregateStopsTheLimit() {
        HashAggregateExec partial = HashAggregateExec.partial(t(), List.of(new Column("a")),
                List.of(new Alias(new AggregateCall(AggregateFunction.SUM, new Column("b")), "s")));
        ExecutionPlan agg = HashAggregateExec.finalPhase(gathered(partial), partial);
        assertThat(beforeAfter(RULE, new LimitExec(agg, 0, 10, true))).isEqualTo("""
                before:
                GlobalLimitExec: fetch=10  [single]
                  HashAggregateExec: mode=final, groupBy=[a], aggr=[sum(b) AS s]  [single]
                    RepartitionExec: single  [single]
                      HashAggregateExec: mode=partial, groupBy=[a], aggr=[sum(b) AS s]  [unknown(3)]
                        TestSource: t  [unknown(3)]
                after:
                GlobalLimitExec: fetch=10  [single]
                  HashAggregateExec: mode=final, groupBy=[a], aggr=[sum(b) AS s]  [single]
                    RepartitionExec: single  [single]
                      HashAggregateExec: mode=partial, groupBy=[a], aggr=[sum(b) AS s]  [unknown(3)]
                        TestSource: t  [unknown(3)]
                """);
    }

    @Test
    void theLimitPassesThroughAProjection() {
        ExecutionPlan projection = new ProjectionExec(gathered(t()), List.of(new Alias(new Column("a"), "x"), new Column("b")));
        assertThat(beforeAfter(RULE, new LimitExec(projection, 0, 7, true))).isEqualTo("""
                before:
                GlobalLimitExec: fetch=7  [single]
                  ProjectionExec: a AS x, b  [single]
                    RepartitionExec: single  [single]
                      TestSource: t  [unknown(3)]
                after:
                GlobalLimitExec: fetch=7  [single]
                  ProjectionExec: a AS x, b  [single]
                    RepartitionExec: single  [single]
                      LocalLimitExec: fetch=7  [unknown(3)]
                        TestSource: t  [unknown(3)]
                """);
    }
}
