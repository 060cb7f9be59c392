package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;

import io.sluice.logical.plan.LogicalPlan;
import org.junit.jupiter.api.Test;

class LeftJoinIsNullToAntiJoinTest {
    private final LeftJoinIsNullToAntiJoin rule = new LeftJoinIsNullToAntiJoin();

    private static LogicalPlan keyed(String query) {
        return new ExtractEquijoinPredicate().apply(sql(query));
    }

    @Test
    void leftJoinKeptWhereTheRightKeyIsNullIsAnAntiJoin() {
        LogicalPlan plan = keyed("SELECT * FROM t LEFT JOIN (SELECT k AS uk, a FROM u) r ON t.k = r.uk WHERE r.uk IS NULL AND t.v > 1");
        assertRewrite(rule, plan, """
                Projection: t.k AS k, t.v AS v, t.d AS d, t.flag AS flag, r.uk AS uk, r.a AS a
                  Filter: (r.uk IS NULL AND (t.v > 1))
                    Join: LEFT keys=[t.k = r.uk]
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: r
                        Projection: k AS uk, a
                          TableScan: u
                """, """
                Projection: t.k AS k, t.v AS v, t.d AS d, t.flag AS flag, r.uk AS uk, r.a AS a
                  Projection: t.k, t.v, t.d, t.flag, NULL AS r.uk, NULL AS r.a
                    Filter: (t.v > 1)
                      Join: LEFT_ANTI keys=[t.k = r.uk]
                        SubqueryAlias: t
                          TableScan: t
                        SubqueryAlias: r
                          Projection: k AS uk, a
                            TableScan: u
                """);
    }

    @Test
    void aFilterOnANonKeyRightColumnStaysAnOuterJoin() {
        assertUnchanged(rule, keyed("SELECT * FROM t LEFT JOIN (SELECT k AS uk, a FROM u) r ON t.k = r.uk WHERE r.a IS NULL"));
        assertUnchanged(rule, keyed("SELECT * FROM t LEFT JOIN (SELECT k AS uk, a FROM u) r ON t.k = r.uk WHERE r.uk IS NULL OR r.a > 1"));
        assertUnchanged(rule, keyed("SELECT * FROM t JOIN (SELECT k AS uk, a FROM u) r ON t.k = r.uk WHERE r.uk IS NULL"));
    }
}
