package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import java.util.List;
import org.junit.jupiter.api.Test;

class PushDownFilterTest {
    private final PushDownFilter rule = new PushDownFilter();

    @Test
    void throughAProjectionSubstitutingAliases() {
        assertRewrite(rule, sql("SELECT k, w FROM (SELECT k, v + 1 AS w FROM t) AS s WHERE w > 3 AND k = 'a'"), """
                Projection: s.k AS k, s.w AS w
                  Filter: ((s.w > 3) AND (s.k = 'a'))
                    SubqueryAlias: s
                      Projection: k, (v + 1) AS w
                        TableScan: t
                """, """
                Projection: s.k AS k, s.w AS w
                  SubqueryAlias: s
                    Projection: k, (v + 1) AS w
                      Filter: (((v + 1) > 3) AND (k = 'a'))
                        TableScan: t
                """);
    }

    @Test
    void throughAWindowOnlyOnPartitionKeys() {
        assertRewrite(rule, sql("SELECT * FROM (SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v) AS rn FROM t) AS s "
                + "WHERE s.k = 'a' AND s.rn <= 2 AND s.v > 1"), """
                Projection: s.k AS k, s.v AS v, s.rn AS rn
                  Filter: (((s.k = 'a') AND (s.rn <= 2)) AND (s.v > 1))
                    SubqueryAlias: s
                      Projection: k, v, row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST) AS rn
                        Window: row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST)
                          TableScan: t
                """, """
                Projection: s.k AS k, s.v AS v, s.rn AS rn
                  SubqueryAlias: s
                    Projection: k, v, row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST) AS rn
                      Filter: ((row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST) <= 2) AND (v > 1))
                        Window: row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST)
                          Filter: (k = 'a')
                            TableScan: t
                """);
    }

    @Test
    void throughASortAndASubqueryAlias() {
        assertRewrite(rule, sql("SELECT * FROM (SELECT k, v FROM t ORDER BY v) AS s WHERE s.v > 3"), """
                Projection: s.k AS k, s.v AS v
                  Filter: (s.v > 3)
                    SubqueryAlias: s
                      Sort: v ASC NULLS LAST
                        Projection: k, v
                          TableScan: t
                """, """
                Projection: s.k AS k, s.v AS v
                  SubqueryAlias: s
                    Sort: v ASC NULLS LAST
                      Projection: k, v
                        Filter: (v > 3)
                          TableScan: t
                """);
    }

    @Test
    void intoBothSidesOfAnInnerJoinLeavingTwoSidedConjuncts() {
        assertRewrite(rule, sql("SELECT t.k, u.x FROM t, u WHERE t.k = u.k AND t.v > 1 AND u.a < 3 AND t.v + u.a > 10 AND 1 = 1"), """
                Projection: t.k AS k, u.x AS x
                  Filter: (((((t.k = u.k) AND (t.v > 1)) AND (u.a < 3)) AND ((t.v + u.a) > 10)) AND (1 = 1))
                    Join: CROSS
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """, """
                Projection: t.k AS k, u.x AS x
                  Filter: (((t.k = u.k) AND ((t.v + u.a) > 10)) AND (1 = 1))
                    Join: CROSS
                      SubqueryAlias: t
                        Filter: (v > 1)
                          TableScan: t
                      SubqueryAlias: u
                        Filter: (a < 3)
                          TableScan: u
                """);
    }

    @Test
    void leftJoinTakesWhereConjunctsOnlyOnItsPreservedSideAndOnConjunctsOnlyOnItsNullSupplyingSide() {
        assertRewrite(rule, sql("SELECT t.k, u.x FROM t LEFT JOIN u ON t.k = u.k AND u.a > 1 AND t.v > 2 WHERE t.flag AND u.x > 0.5"), """
                Projection: t.k AS k, u.x AS x
                  Filter: (t.flag AND (u.x > 0.5))
                    Join: LEFT keys=[t.k = u.k] filter=((u.a > 1) AND (t.v > 2))
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """, """
                Projection: t.k AS k, u.x AS x
                  Filter: (u.x > 0.5)
                    Join: LEFT keys=[t.k = u.k] filter=(t.v > 2)
                      SubqueryAlias: t
                        Filter: flag
                          TableScan: t
                      SubqueryAlias: u
                        Filter: (a > 1)
                          TableScan: u
                """);
    }

    @Test
    void rightJoinMirrorsTheLeftJoin() {
        assertRewrite(rule, sql("SELECT t.k, u.x FROM t RIGHT JOIN u ON t.k = u.k AND u.a > 1 AND t.v > 2 WHERE t.flag AND u.x > 0.5"), """
                Projection: t.k AS k, u.x AS x
                  Filter: (t.flag AND (u.x > 0.5))
                    Join: RIGHT keys=[t.k = u.k] filter=((u.a > 1) AND (t.v > 2))
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """, """
                Projection: t.k AS k, u.x AS x
                  Filter: t.flag
                    Join: RIGHT keys=[t.k = u.k] filter=(u.a > 1)
                      SubqueryAlias: t
                        Filter: (v > 2)
                          TableScan: t
                      SubqueryAlias: u
                        Filter: (x > 0.5)
                          TableScan: u
                """);
    }

    @Test
    void fullJoinKeepsEverythingWhereItIs() {
        LogicalPlan plan = sql("SELECT t.k, u.x FROM t FULL JOIN u ON t.k = u.k AND u.a > 1 AND t.v > 2 WHERE t.flag AND u.x > 0.5");
        assertThat(plan.explain()).isEqualTo("""
                Projection: t.k AS k, u.x AS x
                  Filter: (t.flag AND (u.x > 0.5))
                    Join: FULL keys=[t.k = u.k] filter=((u.a > 1) AND (t.v > 2))
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """);
        assertUnchanged(rule, plan);
    }

    @Test
    void throughAnAggregateOnlyConjunctsOnGroupingKeys() {
        assertRewrite(rule, sql("SELECT k, n FROM (SELECT k, flag, count(*) AS n FROM t GROUP BY k, flag) s WHERE k = 'a' AND n > 2 AND (flag OR n = 1)"), """
                Projection: s.k AS k, s.n AS n
                  Filter: (((s.k = 'a') AND (s.n > 2)) AND (s.flag OR (s.n = 1)))
                    SubqueryAlias: s
                      Projection: k, flag, count(*) AS n
                        Aggregate: groupBy=[k, flag], aggr=[count(*)]
                          TableScan: t
                """, """
                Projection: s.k AS k, s.n AS n
                  SubqueryAlias: s
                    Projection: k, flag, count(*) AS n
                      Filter: ((count(*) > 2) AND (flag OR (count(*) = 1)))
                        Aggregate: groupBy=[k, flag], aggr=[count(*)]
                          Filter: (k = 'a')
                            TableScan: t
                """);
    }

    @Test
    void notThroughAGlobalAggregate() {
        assertRewrite(rule, sql("SELECT n FROM (SELECT count(*) AS n FROM t) s WHERE n > 2"), """
                Projection: s.n AS n
                  Filter: (s.n > 2)
                    SubqueryAlias: s
                      Projection: count(*) AS n
                        Aggregate: groupBy=[], aggr=[count(*)]
                          TableScan: t
                """, """
                Projection: s.n AS n
                  SubqueryAlias: s
                    Projection: count(*) AS n
                      Filter: (count(*) > 2)
                        Aggregate: groupBy=[], aggr=[count(*)]
                          TableScan: t
                """);
    }

    @Test
    void intoEveryUnionInput() {
        assertRewrite(rule, sql("SELECT k FROM (SELECT k FROM t UNION ALL SELECT k FROM u) AS s WHERE k > 'm'"), """
                Projection: s.k AS k
                  Filter: (s.k > 'm')
                    SubqueryAlias: s
                      Union: all
                        Projection: k
                          TableScan: t
                        Projection: k
                          TableScan: u
                """, """
                Projection: s.k AS k
                  SubqueryAlias: s
                    Union: all
                      Projection: k
                        Filter: (k > 'm')
                          TableScan: t
                      Projection: k
                        Filter: (k > 'm')
                          TableScan: u
                """);
    }

    @Test
    void notThroughALimit() {
        assertRewrite(rule, sql("SELECT k FROM (SELECT k, v FROM t LIMIT 10) AS s WHERE v > 1"), """
                Projection: s.k AS k
                  Filter: (s.v > 1)
                    SubqueryAlias: s
                      Limit: fetch=10
                        Projection: k, v
                          TableScan: t
                """, """
                Projection: s.k AS k
                  SubqueryAlias: s
                    Filter: (v > 1)
                      Limit: fetch=10
                        Projection: k, v
                          TableScan: t
                """);
    }

    @Test
    void throughAliasesAndAProjectionIntoJoinSides() {
        assertRewrite(rule, sql("SELECT * FROM (SELECT t.k AS tk, u.a FROM t JOIN u ON t.k = u.k) AS s WHERE s.a = 1 AND tk = 'z'"), """
                Projection: s.tk AS tk, s.a AS a
                  Filter: ((s.a = 1) AND (s.tk = 'z'))
                    SubqueryAlias: s
                      Projection: t.k AS tk, u.a AS a
                        Join: INNER keys=[t.k = u.k]
                          SubqueryAlias: t
                            TableScan: t
                          SubqueryAlias: u
                            TableScan: u
                """, """
                Projection: s.tk AS tk, s.a AS a
                  SubqueryAlias: s
                    Projection: t.k AS tk, u.a AS a
                      Join: INNER keys=[t.k = u.k]
                        SubqueryAlias: t
                          Filter: (k = 'z')
                            TableScan: t
                        SubqueryAlias: u
                          Filter: (a = 1)
                            TableScan: u
                """);
    }

    private static final LogicalPlan T = new SubqueryAlias(new TableScan(RuleTesting.T), "t");
    private static final LogicalPlan U = new SubqueryAlias(new TableScan(RuleTesting.U), "u");

    private static Expr col(String name) {
        return new Column(name);
    }

    private static Expr op(BinaryOp op, Expr a, Expr b) {
        return new Binary(op, a, b);
    }

    @Test
    void semiJoinResidualGoesIntoBothSidesAntiJoinResidualOnlyIntoTheRight() {
        Expr on = op(BinaryOp.AND, op(BinaryOp.GT, col("t.v"), Literal.of(1)), op(BinaryOp.LT, col("u.a"), Literal.of(5)));
        assertRewrite(rule, new Join(T, U, JoinType.LEFT_SEMI, List.of(col("t.k")), List.of(col("u.k")), on), """
                Join: LEFT_SEMI keys=[t.k = u.k] filter=((t.v > 1) AND (u.a < 5))
                  SubqueryAlias: t
                    TableScan: t
                  SubqueryAlias: u
                    TableScan: u
                """, """
                Join: LEFT_SEMI keys=[t.k = u.k]
                  SubqueryAlias: t
                    Filter: (v > 1)
                      TableScan: t
                  SubqueryAlias: u
                    Filter: (a < 5)
                      TableScan: u
                """);
        assertRewrite(rule, new Join(T, U, JoinType.LEFT_ANTI, List.of(col("t.k")), List.of(col("u.k")), on), """
                Join: LEFT_ANTI keys=[t.k = u.k] filter=((t.v > 1) AND (u.a < 5))
                  SubqueryAlias: t
                    TableScan: t
                  SubqueryAlias: u
                    TableScan: u
                """, """
                Join: LEFT_ANTI keys=[t.k = u.k] filter=(t.v > 1)
                  SubqueryAlias: t
                    TableScan: t
                  SubqueryAlias: u
                    Filter: (a < 5)
                      TableScan: u
                """);
        assertUnchanged(rule, new Join(T, U, JoinType.LEFT_ANTI_NULL_AWARE, List.of(col("t.k")), List.of(col("u.k")), on));
    }

    @Test
    void whereOverAnAntiJoinGoesIntoTheLeft() {
        Join anti = new Join(T, U, JoinType.LEFT_ANTI, List.of(col("t.k")), List.of(col("u.k")), null);
        assertRewrite(rule, new Filter(anti, op(BinaryOp.GT, col("v"), Literal.of(1))), """
                Filter: (v > 1)
                  Join: LEFT_ANTI keys=[t.k = u.k]
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """, """
                Join: LEFT_ANTI keys=[t.k = u.k]
                  SubqueryAlias: t
                    Filter: (v > 1)
                      TableScan: t
                  SubqueryAlias: u
                    TableScan: u
                """);
    }

    @Test
    void unqualifiedAndMiscasedNamesAreRebasedToTheSidesExactNames() {
        LogicalPlan plan = new Filter(Join.cross(T, U), op(BinaryOp.AND, op(BinaryOp.GT, col("V"), Literal.of(1)),
                op(BinaryOp.LT, col("x"), Literal.of(2.5))));
        assertRewrite(rule, plan, """
                Filter: ((V > 1) AND (x < 2.5))
                  Join: CROSS
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """, """
                Join: CROSS
                  SubqueryAlias: t
                    Filter: (v > 1)
                      TableScan: t
                  SubqueryAlias: u
                    Filter: (x < 2.5)
                      TableScan: u
                """);
    }

    @Test
    void aFilterLandingOnAFilterMergesWithIt() {
        LogicalPlan plan = new Filter(new SubqueryAlias(new Filter(new TableScan(RuleTesting.T), col("flag")), "s"),
                op(BinaryOp.EQ, col("s.k"), Literal.of("a")));
        assertRewrite(rule, plan, """
                Filter: (s.k = 'a')
                  SubqueryAlias: s
                    Filter: flag
                      TableScan: t
                """, """
                SubqueryAlias: s
                  Filter: (flag AND (k = 'a'))
                    TableScan: t
                """);
    }
}
