package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import java.util.List;
import org.junit.jupiter.api.Test;

class PruneColumnsTest {
    private final PruneColumns rule = new PruneColumns();

    @Test
    void joinSidesKeepTheirKeyAndFilterColumns() {
        assertRewrite(rule, sql("SELECT t.k, u.x FROM t JOIN u ON t.k = u.k AND t.v > u.a"), """
                Projection: t.k AS k, u.x AS x
                  Join: INNER keys=[t.k = u.k] filter=(t.v > u.a)
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """, """
                Projection: t.k AS k, u.x AS x
                  Join: INNER keys=[t.k = u.k] filter=(t.v > u.a)
                    SubqueryAlias: t
                      TableScan: t projection=[k, v]
                    SubqueryAlias: u
                      TableScan: u
                """);
    }

    @Test
    void windowCallsNobodyReadsAreDroppedWithTheirInputs() {
        assertRewrite(rule, sql("SELECT k, rn FROM (SELECT k, v, d, row_number() OVER (PARTITION BY k ORDER BY v) AS rn, "
                + "sum(d) OVER (PARTITION BY k) AS s FROM t) q"), """
                Projection: q.k AS k, q.rn AS rn
                  SubqueryAlias: q
                    Projection: k, v, d, row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST) AS rn, sum(d) OVER (PARTITION BY k) AS s
                      Window: sum(d) OVER (PARTITION BY k)
                        Window: row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST)
                          TableScan: t
                """, """
                Projection: q.k AS k, q.rn AS rn
                  SubqueryAlias: q
                    Projection: k, row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST) AS rn
                      Window: row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS LAST)
                        TableScan: t projection=[k, v]
                """);
    }

    @Test
    void unionInputsAreNarrowedAlike() {
        assertRewrite(rule, sql("SELECT k FROM (SELECT k, v, d FROM t UNION ALL SELECT k, a, x FROM u) s WHERE s.v > 1"), """
                Projection: s.k AS k
                  Filter: (s.v > 1)
                    SubqueryAlias: s
                      Union: all
                        Projection: k, v, CAST(d AS float64) AS d
                          Projection: k, v, d
                            TableScan: t
                        Projection: k, CAST(a AS int64) AS a, x
                          Projection: k, a, x
                            TableScan: u
                """, """
                Projection: s.k AS k
                  Filter: (s.v > 1)
                    SubqueryAlias: s
                      Union: all
                        Projection: k, v
                          Projection: k, v
                            TableScan: t projection=[k, v]
                        Projection: k, CAST(a AS int64) AS a
                          Projection: k, a
                            TableScan: u projection=[k, a]
                """);
    }

    @Test
    void unionUnderCountStarKeepsOneColumn() {
        assertRewrite(rule, sql("SELECT count(*) FROM (SELECT k, v FROM t UNION ALL SELECT k, a FROM u) s"), """
                Projection: count(*)
                  Aggregate: groupBy=[], aggr=[count(*)]
                    SubqueryAlias: s
                      Union: all
                        Projection: k, v
                          TableScan: t
                        Projection: k, CAST(a AS int64) AS a
                          Projection: k, a
                            TableScan: u
                """, """
                Projection: count(*)
                  Aggregate: groupBy=[], aggr=[count(*)]
                    SubqueryAlias: s
                      Union: all
                        Projection: k
                          TableScan: t projection=[k]
                        Projection: k
                          Projection: k
                            TableScan: u projection=[k]
                """);
    }

    @Test
    void unusedProjectionExpressionsAreDropped() {
        assertRewrite(rule, sql("SELECT s.k FROM (SELECT k, v + 1 AS w, d * 2 AS dd FROM t) AS s"), """
                Projection: s.k AS k
                  SubqueryAlias: s
                    Projection: k, (v + 1) AS w, (d * 2) AS dd
                      TableScan: t
                """, """
                Projection: s.k AS k
                  SubqueryAlias: s
                    Projection: k
                      TableScan: t projection=[k]
                """);
    }

    @Test
    void unusedAggregatesAreDropped() {
        assertRewrite(rule, sql("SELECT k, s FROM (SELECT k, sum(v) AS s, max(d) AS m, count(*) AS c FROM t GROUP BY k) x"), """
                Projection: x.k AS k, x.s AS s
                  SubqueryAlias: x
                    Projection: k, sum(v) AS s, max(d) AS m, count(*) AS c
                      Aggregate: groupBy=[k], aggr=[sum(v), max(d), count(*)]
                        TableScan: t
                """, """
                Projection: x.k AS k, x.s AS s
                  SubqueryAlias: x
                    Projection: k, sum(v) AS s
                      Aggregate: groupBy=[k], aggr=[sum(v)]
                        TableScan: t projection=[k, v]
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
    void explodeReadsOnlyTheColumnsAboveItAndItsGenerator() {
        TableSource nested = new TableSource("n", FileFormat.PARQUET, "/data/n", Schema.of(new Field("k", DataType.INT64),
                new Field("v", DataType.UTF8), new Field("xs", DataType.list(DataType.INT64)),
                new Field("other", DataType.map(DataType.UTF8, DataType.INT64))));
        LogicalPlan plan = new Projection(new Generate(new TableScan(nested), col("xs"), false, List.of("x")),
                List.of(col("k"), col("x")));
        assertRewrite(rule, plan, """
                Projection: k, x
                  Generate: explode(xs) AS x
                    TableScan: n
                """, """
                Projection: k, x
                  Generate: explode(xs) AS x
                    TableScan: n projection=[k, xs]
                """);
    }

    @Test
    void semiJoinRightSideKeepsOnlyKeyAndFilterColumnsEvenAtTheRoot() {
        Join semi = new Join(T, U, JoinType.LEFT_SEMI, List.of(col("t.k")), List.of(col("u.k")),
                op(BinaryOp.GT, col("t.v"), col("u.a")));
        assertRewrite(rule, semi, """
                Join: LEFT_SEMI keys=[t.k = u.k] filter=(t.v > u.a)
                  SubqueryAlias: t
                    TableScan: t
                  SubqueryAlias: u
                    TableScan: u
                """, """
                Join: LEFT_SEMI keys=[t.k = u.k] filter=(t.v > u.a)
                  SubqueryAlias: t
                    TableScan: t
                  SubqueryAlias: u
                    TableScan: u projection=[k, a]
                """);
    }

    @Test
    void aColumnOnlyAFilterReadsIsDroppedAboveTheFilter() {
        // TPC-H q13's shape: a column of the right side is read by its filter, not by the join's parent;
        // the scan below narrows too, so the needed columns sit at other positions than before
        LogicalPlan filtered = new SubqueryAlias(new Filter(new TableScan(RuleTesting.T),
                op(BinaryOp.EQ, col("flag"), new io.sluice.logical.expr.Literal(true, io.sluice.common.types.DataType.BOOL))), "w");
        Join left = new Join(U, filtered, JoinType.LEFT, List.of(col("u.k")), List.of(col("w.k")), null);
        assertRewrite(rule, new Projection(left, List.of(col("u.a"), col("w.d"))), """
                Projection: u.a, w.d
                  Join: LEFT keys=[u.k = w.k]
                    SubqueryAlias: u
                      TableScan: u
                    SubqueryAlias: w
                      Filter: (flag = true)
                        TableScan: t
                """, """
                Projection: u.a, w.d
                  Join: LEFT keys=[u.k = w.k]
                    SubqueryAlias: u
                      TableScan: u projection=[k, a]
                    SubqueryAlias: w
                      Projection: k, d
                        Filter: (flag = true)
                          TableScan: t projection=[k, d, flag]
                """);
    }

    @Test
    void aFilterUnderAProjectionOrAJoinIsNotWrapped() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE v > 1"), """
                Projection: k
                  Filter: (v > 1)
                    TableScan: t
                """, """
                Projection: k
                  Filter: (v > 1)
                    TableScan: t projection=[k, v]
                """);
        Join inner = new Join(T, U, JoinType.INNER, List.of(col("t.k")), List.of(col("u.k")), null);
        Join outer = new Join(new Filter(inner, op(BinaryOp.GT, col("t.v"), col("u.a"))),
                new SubqueryAlias(new TableScan(RuleTesting.T), "w"), JoinType.INNER, List.of(col("u.x")), List.of(col("w.d")), null);
        LogicalPlan out = rule.apply(new Projection(outer, List.of(col("w.k"))));
        assertThat(out.explain()).doesNotContain("Projection: u.x").contains("Filter: (t.v > u.a)");
    }

    @Test
    void emptyRelationsNarrow() {
        LogicalPlan empty = new EmptyRelation(new TableScan(RuleTesting.T).schema());
        assertRewrite(rule, new Projection(empty, List.of(col("v"))), """
                Projection: v
                  EmptyRelation: k, v, d, flag
                """, """
                Projection: v
                  EmptyRelation: v
                """);
        assertUnchanged(rule, empty);
    }

    @Test
    void theRootKeepsAllItsColumns() {
        assertUnchanged(rule, Join.cross(T, U));
        assertUnchanged(rule, new TableScan(RuleTesting.T));
    }
}
