package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import org.junit.jupiter.api.Test;

class InferSidePredicatesFromDisjunctionsTest {
    private final InferSidePredicatesFromDisjunctions rule = new InferSidePredicatesFromDisjunctions();

    @Test
    void eachSideGetsWhatEveryBranchSaysOfItAlone() {
        // Q7's shape: the OR stays above, each nation gets its two names
        assertRewrite(rule, sql("SELECT t.k FROM t JOIN u ON t.k = u.k WHERE (t.v = 1 AND u.a = 2) OR (t.v = 2 AND u.a = 1)"), """
                Projection: t.k AS k
                  Filter: (((t.v = 1) AND (u.a = 2)) OR ((t.v = 2) AND (u.a = 1)))
                    Join: INNER keys=[t.k = u.k]
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """, """
                Projection: t.k AS k
                  Filter: (((t.v = 1) AND (u.a = 2)) OR ((t.v = 2) AND (u.a = 1)))
                    Join: INNER keys=[t.k = u.k]
                      Filter: ((t.v = 1) OR (t.v = 2))
                        SubqueryAlias: t
                          TableScan: t
                      Filter: ((u.a = 2) OR (u.a = 1))
                        SubqueryAlias: u
                          TableScan: u
                """);
    }

    @Test
    void aBranchSilentOnASideGivesThatSideNothing() {
        assertUnchanged(rule, sql("SELECT t.k FROM t JOIN u ON t.k = u.k WHERE (t.v = 1 AND u.a = 2) OR u.a = 3"
                + " OR t.v = 4"));
    }

    @Test
    void theRowsAnOuterJoinPreservesAreNotFiltered() {
        // a LEFT join keeps every t row: only u may be filtered by the residual's OR
        assertRewrite(rule, sql("SELECT t.k FROM t LEFT JOIN u ON t.k = u.k AND ((t.v = 1 AND u.a = 2) OR (t.v = 2 AND u.a = 1))"), """
                Projection: t.k AS k
                  Join: LEFT keys=[t.k = u.k] filter=(((t.v = 1) AND (u.a = 2)) OR ((t.v = 2) AND (u.a = 1)))
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """, """
                Projection: t.k AS k
                  Join: LEFT keys=[t.k = u.k] filter=(((t.v = 1) AND (u.a = 2)) OR ((t.v = 2) AND (u.a = 1)))
                    SubqueryAlias: t
                      TableScan: t
                    Filter: ((u.a = 2) OR (u.a = 1))
                      SubqueryAlias: u
                        TableScan: u
                """);
    }

    @Test
    void theStandardRulesReachAFixedPointWithEachSideFilteredOnce() {
        LogicalPlan plan = sql("SELECT sum(u.x) FROM t, u WHERE (t.k = u.k AND t.v = 1 AND u.a < 5)"
                + " OR (t.k = u.k AND t.v = 2 AND u.a < 9)");
        LogicalOptimizer optimizer = new LogicalOptimizer(LogicalOptimizer.standardRules(StatisticsEstimator::new, new EvaluatingConstantFolder()), 16);
        String once = optimizer.optimize(plan).explain();
        assertThat(once).contains("Filter: ((v = 1) OR (v = 2))").contains("Filter: ((a < 5) OR (a < 9))");
        assertThat(once.split("\\(v = 1\\) OR \\(v = 2\\)", -1)).as("derived once").hasSize(2);
        assertThat(optimizer.optimize(optimizer.optimize(plan)).explain()).isEqualTo(once);
    }
}
