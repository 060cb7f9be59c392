package io.sluice.optimizer.logical;

import static io.sluice.optimizer.logical.RuleTesting.assertRewrite;
import static io.sluice.optimizer.logical.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.logical.RuleTesting.sql;

import org.junit.jupiter.api.Test;

class DecorrelateScalarSubqueryTest {
    private final DecorrelateScalarSubquery rule = new DecorrelateScalarSubquery();

    @Test
    void uncorrelatedBecomesACrossJoinWithTheOneRow() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE v > (SELECT avg(a) FROM u)"), """
                Projection: k
                  Filter: (v > (scalar subquery))
                    Subquery: (scalar subquery)
                      Projection: avg(a)
                        Aggregate: groupBy=[], aggr=[avg(a)]
                          TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: (v > __sq1.value)
                      Join: INNER keys=[0 = 0]
                        TableScan: t
                        Projection: avg(a) AS __sq1.value
                          Projection: avg(a)
                            Aggregate: groupBy=[], aggr=[avg(a)]
                              TableScan: u
                """);
    }

    @Test
    void correlatedBecomesALeftJoinWithTheAggregateGroupedByTheKeys() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE v < (SELECT 2 * max(a) FROM u WHERE u.k = t.k AND x > 0)"), """
                Projection: k
                  Filter: (v < (scalar subquery))
                    Subquery: (scalar subquery)
                      Projection: (2 * max(a))
                        Aggregate: groupBy=[], aggr=[max(a)]
                          Filter: ((k = outer(k)) AND (x > 0))
                            TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: (v < __sq1.value)
                      Join: LEFT keys=[k = __sq1.k]
                        TableScan: t
                        Projection: k AS __sq1.k, (2 * max(a)) AS __sq1.value
                          Aggregate: groupBy=[k], aggr=[max(a)]
                            Filter: (x > 0)
                              TableScan: u
                """);
    }

    @Test
    void aCountOverNoRowsIsZeroNotNull() {
        assertRewrite(rule, sql("SELECT k, (SELECT count(*) FROM u WHERE u.k = t.k) AS n FROM t"), """
                Projection: k, (scalar subquery) AS n
                  Subquery: (scalar subquery)
                    Projection: count(*)
                      Aggregate: groupBy=[], aggr=[count(*)]
                        Filter: (k = outer(k))
                          TableScan: u
                  TableScan: t
                """, """
                Projection: k, CASE WHEN __sq1.k IS NULL THEN 0 ELSE __sq1.value END AS n
                  Join: LEFT keys=[k = __sq1.k]
                    TableScan: t
                    Projection: k AS __sq1.k, count(*) AS __sq1.value
                      Aggregate: groupBy=[k], aggr=[count(*)]
                        TableScan: u
                """);
    }

    @Test
    void leavesAloneWhatItCannotRewrite() {
        assertUnchanged(rule, sql("SELECT k FROM t WHERE v = (SELECT a FROM u)"));
        assertUnchanged(rule, sql("SELECT k FROM t WHERE v = (SELECT max(a) FROM u WHERE u.a < t.v)"));
    }
}
