package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.sql;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.TableScan;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogicalOptimizerTest {
    private static final int CAP = 16;
    private static final LogicalPlan T = new TableScan(RuleTesting.T);

    /** Rewrites a root {@code Limit(from)} into {@code Limit(to)}; anything else it leaves alone. */
    private record SetFetch(long from, long to) implements LogicalRule {
        @Override
        public String name() {
            return "SetFetch(" + from + "->" + to + ")";
        }

        @Override
        public LogicalPlan apply(LogicalPlan plan) {
            return plan instanceof Limit l && l.fetch() == from ? new Limit(l.input(), 0, to) : plan;
        }
    }

    /** Flips a root limit between 1 and 2 rows; any other fetch becomes 1. */
    private record Toggle() implements LogicalRule {
        @Override
        public String name() {
            return "Toggle";
        }

        @Override
        public LogicalPlan apply(LogicalPlan plan) {
            if (!(plan instanceof Limit l)) {
                return plan;
            }
            return new Limit(l.input(), 0, l.fetch() == 1 ? 2 : 1);
        }
    }

    /** Makes a plan never seen before on every application. */
    private record Grow() implements LogicalRule {
        @Override
        public String name() {
            return "Grow";
        }

        @Override
        public LogicalPlan apply(LogicalPlan plan) {
            return plan instanceof Limit l ? new Limit(l.input(), 0, l.fetch() + 1) : new Limit(plan, 0, 1);
        }
    }

    private static LogicalOptimizer.Result run(LogicalPlan plan, LogicalRule... rules) {
        return new LogicalOptimizer(List.of(rules), CAP).run(plan);
    }

    @Test
    void rulesUndoingEachOtherWithinAPassStopAtPassOneRepeatingTheInput() {
        LogicalOptimizer.Result r = run(new Limit(T, 0, 1), new SetFetch(1, 2), new SetFetch(2, 1));
        assertThat(r.passes()).isEqualTo(1);
        assertThat(r.fixedPoint()).isTrue();
        assertThat(r.repeatedPass()).isZero();
        assertThat(r.plan().explain()).isEqualTo("""
                Limit: fetch=1
                  TableScan: t
                """);
        assertThat(r.trace()).containsExactly("""
                pass 1, after SetFetch(1->2):
                Limit: fetch=2
                  TableScan: t
                """, """
                pass 1, after SetFetch(2->1):
                Limit: fetch=1
                  TableScan: t
                """, "fixed point at pass 1: the plan equals the input");
    }

    @Test
    void rulesUndoingEachOtherStopWhenALaterPassRepeatsAnEarlierPassesPlan() {
        // Pass 1 leaves Limit 1 (new); pass 2 turns it into 2 and back: the plan of pass 1 again.
        LogicalOptimizer.Result r = run(new Limit(T, 0, 2), new SetFetch(1, 2), new SetFetch(2, 1));
        assertThat(r.passes()).isEqualTo(2);
        assertThat(r.fixedPoint()).isTrue();
        assertThat(r.repeatedPass()).isEqualTo(1);
        assertThat(r.plan().explain()).isEqualTo("""
                Limit: fetch=1
                  TableScan: t
                """);
        assertThat(r.trace()).last().isEqualTo("fixed point at pass 2: the plan equals pass 1's");
    }

    @Test
    void anOscillationAcrossPassesStopsWhenItRepeats() {
        // Passes yield fetch 1, 2, 1: the third repeats the first, as DESIGN.md describes.
        LogicalOptimizer.Result r = run(new Limit(T, 0, 10), new Toggle());
        assertThat(r.passes()).isEqualTo(3);
        assertThat(r.fixedPoint()).isTrue();
        assertThat(r.repeatedPass()).isEqualTo(1);
        assertThat(r.trace()).last().isEqualTo("cycle: pass 3 repeats pass 1");
    }

    @Test
    void aCycleBackToTheInputIsDetectedToo() {
        // Passes yield fetch 2, 1: the second repeats the input.
        LogicalOptimizer.Result r = run(new Limit(T, 0, 1), new Toggle());
        assertThat(r.passes()).isEqualTo(2);
        assertThat(r.repeatedPass()).isZero();
        assertThat(r.trace()).last().isEqualTo("cycle: pass 2 repeats the input");
    }

    @Test
    void aRuleMakingNewPlansEveryPassStopsAtTheCap() {
        LogicalOptimizer.Result r = run(T, new Grow());
        assertThat(r.fixedPoint()).isFalse();
        assertThat(r.passes()).isEqualTo(CAP);
        assertThat(r.repeatedPass()).isEqualTo(-1);
        assertThat(r.plan().explain()).isEqualTo("""
                Limit: fetch=16
                  TableScan: t
                """);
        assertThat(r.trace()).last().isEqualTo("stopped at the cap of 16 passes");
    }

    @Test
    void nothingToDoStopsAfterOnePass() {
        LogicalOptimizer.Result r = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder()).run(T);
        assertThat(r.passes()).isEqualTo(1);
        assertThat(r.fixedPoint()).isTrue();
        assertThat(r.plan()).isSameAs(T);
        assertThat(r.trace()).containsExactly("fixed point at pass 1: the plan equals the input");
    }

    @Test
    void standardRulesOnACommaJoin() {
        LogicalOptimizer.Result r = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder()).run(sql("""
                SELECT t.k, sum(u.x) AS total
                FROM t, u
                WHERE t.k = u.k AND t.v > 1 + 1 AND u.a < 3 AND t.v + u.a > 10 AND true
                GROUP BY t.k
                ORDER BY total DESC
                LIMIT 10"""));
        assertThat(r.plan().explain()).isEqualTo("""
                Limit: fetch=10
                  Sort: total DESC NULLS LAST, fetch=10
                    Projection: t.k AS k, sum(u.x) AS total
                      Aggregate: groupBy=[t.k], aggr=[sum(u.x)]
                        Filter: ((t.v + u.a) > 10)
                          Join: INNER keys=[t.k = u.k]
                            SubqueryAlias: t
                              Filter: (v > 2)
                                TableScan: t projection=[k, v]
                            SubqueryAlias: u
                              Filter: (a < 3)
                                TableScan: u
                """);
        assertThat(r.fixedPoint()).isTrue();
        assertThat(r.passes()).isEqualTo(2);
    }

    @Test
    void standardRulesOnAUnionUnderALimit() {
        LogicalOptimizer.Result r = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder()).run(sql("""
                SELECT k FROM (SELECT k, v FROM t UNION ALL SELECT k, a FROM u) AS s WHERE k > 'm' LIMIT 5"""));
        assertThat(r.plan().explain()).isEqualTo("""
                Projection: s.k AS k
                  SubqueryAlias: s
                    Limit: fetch=5
                      Union: all
                        Limit: fetch=5
                          Filter: (k > 'm')
                            TableScan: t projection=[k]
                        Limit: fetch=5
                          Filter: (k > 'm')
                            TableScan: u projection=[k]
                """);
        assertThat(r.fixedPoint()).isTrue();
    }

    @Test
    void standardRulesEmptyAFalseQuery() {
        LogicalOptimizer.Result r = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder()).run(sql(
                "SELECT t.k FROM t JOIN u ON t.k = u.k WHERE 1 = 0 OR (t.flag AND false)"));
        assertThat(r.plan().explain()).isEqualTo("""
                EmptyRelation: k
                """);
    }

    /** A rule that always throws. */
    private record Explode() implements LogicalRule {
        @Override
        public String name() {
            return "Explode";
        }

        @Override
        public LogicalPlan apply(LogicalPlan plan) {
            throw new IllegalStateException("boom");
        }
    }

    @Test
    void aFailingRuleFailsTheQueryNamingTheRuleAndTheCause() {
        assertThatThrownBy(() -> run(new Limit(T, 0, 1), new SetFetch(1, 2), new Explode()))
                .isInstanceOf(OptimizerRuleException.class)
                .isInstanceOf(io.sluice.common.SluiceException.class)
                .hasMessageContaining("Explode").hasMessageContaining("boom");
    }

    @Test
    void skippingFailedRulesKeepsThePlanFromBeforeTheRule() {
        LogicalOptimizer.Result r = new LogicalOptimizer(List.of(new SetFetch(1, 2), new Explode()), CAP, true)
                .run(new Limit(T, 0, 1));
        assertThat(r.plan().explain()).isEqualTo("""
                Limit: fetch=2
                  TableScan: t
                """);
        assertThat(r.fixedPoint()).isTrue();
        assertThat(r.passes()).isEqualTo(2);
        assertThat(r.trace()).anyMatch(t -> t.startsWith("pass 1, Explode failed and was skipped"));
    }
}
