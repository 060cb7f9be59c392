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
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractEquijoinPredicateTest {
    private final ExtractEquijoinPredicate rule = new ExtractEquijoinPredicate();

    @Test
    void crossJoinWithWhereEqualitiesBecomesAnEquijoin() {
        assertRewrite(rule, sql("SELECT t.k, u.x FROM t, u WHERE t.k = u.k AND u.a = t.v + 1 AND t.v > 1 AND t.v = t.v"), """
                Projection: t.k AS k, u.x AS x
                  Filter: ((((t.k = u.k) AND (u.a = (t.v + 1))) AND (t.v > 1)) AND (t.v = t.v))
                    Join: CROSS
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """, """
                Projection: t.k AS k, u.x AS x
                  Filter: ((t.v > 1) AND (t.v = t.v))
                    Join: INNER keys=[t.k = u.k, (t.v + 1) = u.a]
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """);
    }

    @Test
    void equalityAboveAJoinWithAResidualBecomesAKey() {
        assertRewrite(rule, sql("SELECT t.k FROM t JOIN u ON t.v > u.a WHERE t.k = u.k"), """
                Projection: t.k AS k
                  Filter: (t.k = u.k)
                    Join: INNER filter=(t.v > u.a)
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """, """
                Projection: t.k AS k
                  Join: INNER keys=[t.k = u.k] filter=(t.v > u.a)
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """);
    }

    @Test
    void notAboveAnOuterJoin() {
        LogicalPlan plan = sql("SELECT t.k FROM t LEFT JOIN u ON t.v > u.a WHERE t.k = u.k");
        assertThat(plan.explain()).isEqualTo("""
                Projection: t.k AS k
                  Filter: (t.k = u.k)
                    Join: LEFT filter=(t.v > u.a)
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """);
        assertUnchanged(rule, plan);
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
    void residualEqualitiesOfOuterAndSemiJoinsBecomeKeys() {
        Expr on = op(BinaryOp.AND, op(BinaryOp.EQ, col("u.k"), col("t.k")), op(BinaryOp.GT, col("t.v"), col("u.a")));
        for (JoinType type : List.of(JoinType.LEFT, JoinType.FULL, JoinType.LEFT_SEMI)) {
            assertRewrite(rule, new Join(T, U, type, List.of(), List.of(), on), """
                    Join: %s filter=((u.k = t.k) AND (t.v > u.a))
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                    """.formatted(type), """
                    Join: %s keys=[t.k = u.k] filter=(t.v > u.a)
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                    """.formatted(type));
        }
        assertUnchanged(rule, new Join(T, U, JoinType.LEFT_ANTI_NULL_AWARE, List.of(), List.of(), on));
    }

    @Test
    void equalitiesOfConstantsOrOneSideStay() {
        Expr where = op(BinaryOp.AND, op(BinaryOp.EQ, col("t.k"), Literal.of("a")),
                op(BinaryOp.EQ, op(BinaryOp.ADD, col("t.v"), col("u.a")), Literal.of(3)));
        assertUnchanged(rule, new io.sluice.logical.plan.Filter(Join.cross(T, U), where));
    }
}
