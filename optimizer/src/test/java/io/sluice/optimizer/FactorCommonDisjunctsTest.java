package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import org.junit.jupiter.api.Test;

class FactorCommonDisjunctsTest {
    private final FactorCommonDisjuncts rule = new FactorCommonDisjuncts();

    @Test
    void joinKeyInEveryBranchStandsAlone() {
        assertRewrite(rule, sql("SELECT t.k FROM t, u WHERE (t.k = u.k AND t.v > 1 AND u.a = 2)"
                + " OR (u.a = 3 AND t.k = u.k) OR (t.k = u.k AND t.flag)"), """
                Projection: t.k AS k
                  Filter: (((((t.k = u.k) AND (t.v > 1)) AND (u.a = 2)) OR ((u.a = 3) AND (t.k = u.k))) OR ((t.k = u.k) AND t.flag))
                    Join: CROSS
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """, """
                Projection: t.k AS k
                  Filter: ((t.k = u.k) AND ((((t.v > 1) AND (u.a = 2)) OR (u.a = 3)) OR t.flag))
                    Join: CROSS
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """);
    }

    @Test
    void branchThatIsOnlyTheCommonPartAbsorbsTheOthers() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE v > 1 AND (flag OR (flag AND k = 'a'))"), """
                Projection: k
                  Filter: ((v > 1) AND (flag OR (flag AND (k = 'a'))))
                    TableScan: t
                """, """
                Projection: k
                  Filter: ((v > 1) AND flag)
                    TableScan: t
                """);
    }

    @Test
    void joinResidualIsFactoredToo() {
        assertRewrite(rule, sql("SELECT t.k FROM t LEFT JOIN u ON (t.k = u.k AND u.a = 1) OR (t.k = u.k AND u.a = 2)"), """
                Projection: t.k AS k
                  Join: LEFT filter=(((t.k = u.k) AND (u.a = 1)) OR ((t.k = u.k) AND (u.a = 2)))
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """, """
                Projection: t.k AS k
                  Join: LEFT filter=((t.k = u.k) AND ((u.a = 1) OR (u.a = 2)))
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """);
    }

    @Test
    void orWithoutACommonConjunctIsLeftAlone() {
        assertUnchanged(rule, sql("SELECT k FROM t WHERE (v > 1 AND flag) OR (v < 0 AND k = 'a')"));
        assertUnchanged(rule, sql("SELECT k FROM t WHERE v > 1 AND flag"));
    }

    @Test
    void theStandardRulesTurnQ19ShapeIntoAnEquijoin() {
        LogicalPlan plan = sql("SELECT sum(u.x) FROM t, u WHERE (t.k = u.k AND t.v = 1 AND u.a < 5)"
                + " OR (t.k = u.k AND t.v = 2 AND u.a < 9)");
        String optimized = new LogicalOptimizer(LogicalOptimizer.standardRules(StatisticsEstimator::new, new EvaluatingConstantFolder()), 16).optimize(plan).explain();
        assertThat(optimized).contains("Join: INNER keys=[t.k = u.k]").doesNotContain("CROSS");
    }
}
