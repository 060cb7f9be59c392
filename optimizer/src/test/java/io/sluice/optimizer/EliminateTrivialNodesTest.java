package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;

import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import java.util.List;
import org.junit.jupiter.api.Test;

class EliminateTrivialNodesTest {
    private final EliminateTrivialNodes rule = new EliminateTrivialNodes();

    @Test
    void filterTrueGoes() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE true"), """
                Projection: k
                  Filter: true
                    TableScan: t
                """, """
                Projection: k
                  TableScan: t
                """);
    }

    @Test
    void identityProjectionAndUnboundedLimitGo() {
        assertRewrite(rule, sql("SELECT * FROM t OFFSET 0"), """
                Limit: fetch=9223372036854775807
                  Projection: k, v, d, flag
                    TableScan: t
                """, """
                TableScan: t
                """);
    }

    @Test
    void falseFilterEmptiesEverythingUpToAGroupedAggregateAndBeyond() {
        assertRewrite(rule, sql("SELECT k, count(*) FROM t WHERE false GROUP BY k ORDER BY k LIMIT 3"), """
                Limit: fetch=3
                  Sort: k ASC NULLS LAST
                    Projection: k, count(*)
                      Aggregate: groupBy=[k], aggr=[count(*)]
                        Filter: false
                          TableScan: t
                """, """
                EmptyRelation: k, count(*)
                """);
    }

    @Test
    void globalAggregateOverNothingStillHasItsRow() {
        // The projection passing count(*) through goes too: it is an identity.
        assertRewrite(rule, sql("SELECT count(*) FROM t WHERE NULL"), """
                Projection: count(*)
                  Aggregate: groupBy=[], aggr=[count(*)]
                    Filter: NULL
                      TableScan: t
                """, """
                Aggregate: groupBy=[], aggr=[count(*)]
                  EmptyRelation: k, v, d, flag
                """);
    }

    @Test
    void limitZero() {
        assertRewrite(rule, sql("SELECT k, v FROM t LIMIT 0"), """
                Limit: fetch=0
                  Projection: k, v
                    TableScan: t
                """, """
                EmptyRelation: k, v
                """);
    }

    @Test
    void innerJoinWithAnEmptySideOrAFalseResidualIsEmpty() {
        assertRewrite(rule, sql("SELECT t.k FROM (SELECT * FROM t WHERE false) AS t JOIN u ON t.k = u.k"), """
                Projection: t.k AS k
                  Join: INNER keys=[t.k = u.k]
                    SubqueryAlias: t
                      Projection: k, v, d, flag
                        Filter: false
                          TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """, """
                EmptyRelation: k
                """);
        LogicalPlan t = new SubqueryAlias(new TableScan(RuleTesting.T), "t");
        LogicalPlan u = new SubqueryAlias(new TableScan(RuleTesting.U), "u");
        assertRewrite(rule, new Join(t, u, JoinType.INNER, List.of(), List.of(), Literal.of(false)), """
                Join: INNER filter=false
                  SubqueryAlias: t
                    TableScan: t
                  SubqueryAlias: u
                    TableScan: u
                """, """
                EmptyRelation: t.k, t.v, t.d, t.flag, u.k, u.a, u.x
                """);
    }

    @Test
    void leftJoinWithAnEmptyRightSideStays() {
        LogicalPlan plan = sql("SELECT t.k, u.x FROM t LEFT JOIN (SELECT * FROM u LIMIT 0) AS u ON t.k = u.k");
        assertRewrite(rule, plan, """
                Projection: t.k AS k, u.x AS x
                  Join: LEFT keys=[t.k = u.k]
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      Limit: fetch=0
                        Projection: k, a, x
                          TableScan: u
                """, """
                Projection: t.k AS k, u.x AS x
                  Join: LEFT keys=[t.k = u.k]
                    SubqueryAlias: t
                      TableScan: t
                    EmptyRelation: u.k, u.a, u.x
                """);
    }

    @Test
    void emptyUnionInputsAreDroppedKeepingTheUnionsNamesAndTypes() {
        assertRewrite(rule, sql("SELECT v FROM t WHERE false UNION ALL SELECT a FROM u"), """
                Union: all
                  Projection: v
                    Filter: false
                      TableScan: t
                  Projection: CAST(a AS int64) AS a
                    Projection: a
                      TableScan: u
                """, """
                Projection: a AS v
                  Projection: CAST(a AS int64) AS a
                    Projection: a
                      TableScan: u
                """);
        assertRewrite(rule, sql("SELECT k FROM t UNION ALL SELECT k FROM u WHERE false UNION ALL SELECT k FROM u"), """
                Union: all
                  Projection: k
                    TableScan: t
                  Projection: k
                    Filter: false
                      TableScan: u
                  Projection: k
                    TableScan: u
                """, """
                Union: all
                  Projection: k
                    TableScan: t
                  Projection: k
                    TableScan: u
                """);
    }

    @Test
    void nothingTrivial() {
        assertUnchanged(rule, sql("SELECT k, count(*) AS n FROM t WHERE flag GROUP BY k LIMIT 1"));
        assertUnchanged(rule, new Filter(new TableScan(RuleTesting.T), new Column("flag")));
    }
}
