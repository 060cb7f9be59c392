package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.TableScan;
import java.util.List;
import org.junit.jupiter.api.Test;

class MergeProjectionsTest {
    private final MergeProjections rule = new MergeProjections();
    private final LogicalPlan t = new TableScan(RuleTesting.T);

    private static Expr col(String name) {
        return new Column(name);
    }

    private static Expr plus(Expr a, long b) {
        return new Binary(BinaryOp.ADD, a, Literal.of(b));
    }

    @Test
    void inlinesTheLowerExpressionsUnderTheUpperNames() {
        LogicalPlan lower = new Projection(t, List.of(col("k"), new Alias(plus(col("v"), 1), "w"), col("d")));
        LogicalPlan upper = new Projection(lower, List.of(new Alias(plus(col("w"), 2), "w2"), col("k")));
        assertRewrite(rule, upper, """
                Projection: (w + 2) AS w2, k
                  Projection: k, (v + 1) AS w, d
                    TableScan: t
                """, """
                Projection: ((v + 1) + 2) AS w2, k
                  TableScan: t
                """);
    }

    @Test
    void castsFromAUnionInputMerge() {
        LogicalPlan plan = sql("SELECT k, v FROM t UNION ALL SELECT k, a FROM u");
        assertRewrite(rule, plan, """
                Union: all
                  Projection: k, v
                    TableScan: t
                  Projection: k, CAST(a AS int64) AS a
                    Projection: k, a
                      TableScan: u
                """, """
                Union: all
                  Projection: k, v
                    TableScan: t
                  Projection: k, CAST(a AS int64) AS a
                    TableScan: u
                """);
    }

    @Test
    void threeProjectionsBecomeOneInOnePass() {
        LogicalPlan p1 = new Projection(t, List.of(new Alias(plus(col("v"), 1), "a")));
        LogicalPlan p2 = new Projection(p1, List.of(new Alias(plus(col("a"), 2), "b")));
        LogicalPlan p3 = new Projection(p2, List.of(new Alias(plus(col("b"), 3), "c")));
        assertRewrite(rule, p3, """
                Projection: (b + 3) AS c
                  Projection: (a + 2) AS b
                    Projection: (v + 1) AS a
                      TableScan: t
                """, """
                Projection: (((v + 1) + 2) + 3) AS c
                  TableScan: t
                """);
    }

    @Test
    void computedColumnReadTwiceIsNotRecomputed() {
        LogicalPlan lower = new Projection(t, List.of(new Alias(plus(col("v"), 1), "w")));
        assertUnchanged(rule, new Projection(lower, List.of(new Binary(BinaryOp.MULTIPLY, col("w"), col("w")))));
        assertUnchanged(rule, new Projection(lower, List.of(new Alias(plus(col("w"), 2), "w2"), col("w"))));
    }

    @Test
    void nothingToMerge() {
        assertUnchanged(rule, sql("SELECT k FROM t ORDER BY v"));
    }
}
