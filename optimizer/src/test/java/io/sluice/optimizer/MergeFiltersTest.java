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
import org.junit.jupiter.api.Test;

class MergeFiltersTest {
    private final MergeFilters rule = new MergeFilters();

    @Test
    void stackedFiltersBecomeOneLowerPredicateFirst() {
        LogicalPlan plan = new Filter(new Filter(sql("SELECT k, v FROM t WHERE flag"),
                new Binary(BinaryOp.GT, new Column("v"), Literal.of(1))), new Binary(BinaryOp.EQ, new Column("k"), Literal.of("a")));
        assertRewrite(rule, plan, """
                Filter: (k = 'a')
                  Filter: (v > 1)
                    Projection: k, v
                      Filter: flag
                        TableScan: t
                """, """
                Filter: ((v > 1) AND (k = 'a'))
                  Projection: k, v
                    Filter: flag
                      TableScan: t
                """);
    }

    @Test
    void whereOverHavingOfASubquery() {
        LogicalPlan plan = new Filter(sql("SELECT k, count(*) AS n FROM t GROUP BY k HAVING count(*) > 1"),
                new Binary(BinaryOp.LT, new Column("n"), Literal.of(5)));
        assertUnchanged(rule, plan);
        LogicalPlan having = sql("SELECT k FROM t GROUP BY k HAVING count(*) > 1");
        assertUnchanged(rule, having);
    }
}
