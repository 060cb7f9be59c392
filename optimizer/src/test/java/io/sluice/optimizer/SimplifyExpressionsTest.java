package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.TableScan;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import org.junit.jupiter.api.Test;

class SimplifyExpressionsTest {
    private final SimplifyExpressions rule = new SimplifyExpressions(new EvaluatingConstantFolder());

    @Test
    void foldsConstantsAndKeepsOutputNames() {
        assertRewrite(rule, sql("SELECT k, 1 + 2 * 3 AS c, v + (2 - 1), CAST('2.50' AS DECIMAL(4,2)) FROM t"), """
                Projection: k, (1 + (2 * 3)) AS c, (v + (2 - 1)), CAST('2.50' AS decimal(4,2))
                  TableScan: t
                """, """
                Projection: k, 7 AS c, (v + 1) AS (v + (2 - 1)), 2.50 AS CAST('2.50' AS decimal(4,2))
                  TableScan: t
                """);
    }

    @Test
    void booleanIdentities() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE (flag AND true) OR (false AND v > 1 + 1) OR NOT NOT (v = 2)"), """
                Projection: k
                  Filter: (((flag AND true) OR (false AND (v > (1 + 1)))) OR NOT NOT (v = 2))
                    TableScan: t
                """, """
                Projection: k
                  Filter: (flag OR (v = 2))
                    TableScan: t
                """);
    }

    @Test
    void andFalseIsFalseAndOrTrueIsTrueWhateverTheOtherSide() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE (v > 1 AND 'a' = 'b') OR (flag AND false)"), """
                Projection: k
                  Filter: (((v > 1) AND ('a' = 'b')) OR (flag AND false))
                    TableScan: t
                """, """
                Projection: k
                  Filter: false
                    TableScan: t
                """);
        assertRewrite(rule, sql("SELECT k FROM t WHERE v > 1 OR 2 >= 1"), """
                Projection: k
                  Filter: ((v > 1) OR (2 >= 1))
                    TableScan: t
                """, """
                Projection: k
                  Filter: true
                    TableScan: t
                """);
    }

    @Test
    void nullsFoldToTypedNullsAndTrueAndNullStaysNull() {
        assertRewrite(rule, sql("SELECT k, NULL + 1 AS n FROM t WHERE true AND NULL"), """
                Projection: k, (NULL + 1) AS n
                  Filter: (true AND NULL)
                    TableScan: t
                """, """
                Projection: k, NULL AS n
                  Filter: NULL
                    TableScan: t
                """);
    }

    @Test
    void identitiesKeepTypes() {
        // x AND true is x only for a boolean x: a NULL-typed column stays as it is.
        LogicalPlan nullColumn = sql("SELECT NULL AS n, k FROM t");
        LogicalPlan plan = new Filter(nullColumn, new Binary(BinaryOp.AND, new Column("n"), Literal.of(true)));
        assertUnchanged(rule, plan);
    }

    @Test
    void aggregatesAndGroupKeysKeepTheirNames() {
        assertRewrite(rule, sql("SELECT k, sum(v * (1 + 1)) FROM t GROUP BY k, 2 + 3 ORDER BY sum(v * (1 + 1)) + (0 - 1)"), """
                Projection: k, sum((v * (1 + 1)))
                  Sort: (sum((v * (1 + 1))) + (0 - 1)) ASC NULLS LAST
                    Projection: k, sum((v * (1 + 1))), (sum((v * (1 + 1))) + (0 - 1))
                      Aggregate: groupBy=[k, (2 + 3)], aggr=[sum((v * (1 + 1)))]
                        TableScan: t
                """, """
                Projection: k, sum((v * (1 + 1)))
                  Sort: (sum((v * (1 + 1))) + (0 - 1)) ASC NULLS LAST
                    Projection: k, sum((v * (1 + 1))), (sum((v * (1 + 1))) + -1) AS (sum((v * (1 + 1))) + (0 - 1))
                      Aggregate: groupBy=[k, 5 AS (2 + 3)], aggr=[sum((v * 2)) AS sum((v * (1 + 1)))]
                        TableScan: t
                """);
    }

    @Test
    void joinConditionsAreSimplifiedAndATrueResidualDropped() {
        assertRewrite(rule, sql("SELECT t.k FROM t JOIN u ON t.v + (1 * 1) = u.a AND 1 = 1"), """
                Projection: t.k AS k
                  Join: INNER keys=[(t.v + (1 * 1)) = u.a] filter=(1 = 1)
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """, """
                Projection: t.k AS k
                  Join: INNER keys=[(t.v + 1) = u.a]
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """);
    }

    @Test
    void failingConstantsAreLeftForRunTime() {
        assertUnchanged(rule, sql("SELECT k FROM t WHERE v > 9223372036854775807 + 1 AND CAST('x' AS INTEGER) = v"));
    }

    @Test
    void nothingToSimplify() {
        assertUnchanged(rule, sql("SELECT k, v + 1 FROM t WHERE flag AND v > 2 ORDER BY k"));
        assertUnchanged(rule, new TableScan(RuleTesting.T));
    }
}
