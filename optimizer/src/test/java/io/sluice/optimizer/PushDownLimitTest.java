package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.sql;

import org.junit.jupiter.api.Test;

class PushDownLimitTest {
    private final PushDownLimit rule = new PushDownLimit();

    @Test
    void throughAProjectionIntoASortAsATopKKeepingTheOffsetAbove() {
        assertRewrite(rule, sql("SELECT k FROM t ORDER BY v LIMIT 3 OFFSET 2"), """
                Limit: fetch=3 offset=2
                  Projection: k
                    Sort: v ASC NULLS LAST
                      Projection: k, v
                        TableScan: t
                """, """
                Projection: k
                  Limit: fetch=3 offset=2
                    Sort: v ASC NULLS LAST, fetch=5
                      Projection: k, v
                        TableScan: t
                """);
    }

    @Test
    void mergesWithALowerLimit() {
        assertRewrite(rule, sql("SELECT * FROM (SELECT k FROM t LIMIT 10) AS s LIMIT 3 OFFSET 2"), """
                Limit: fetch=3 offset=2
                  Projection: s.k AS k
                    SubqueryAlias: s
                      Limit: fetch=10
                        Projection: k
                          TableScan: t
                """, """
                Projection: s.k AS k
                  SubqueryAlias: s
                    Projection: k
                      Limit: fetch=3 offset=2
                        TableScan: t
                """);
    }

    @Test
    void mergedOffsetsAddUpAndFetchIsWhatIsLeft() {
        assertRewrite(rule, sql("SELECT * FROM (SELECT k FROM t LIMIT 4 OFFSET 1) AS s LIMIT 10 OFFSET 2"), """
                Limit: fetch=10 offset=2
                  Projection: s.k AS k
                    SubqueryAlias: s
                      Limit: fetch=4 offset=1
                        Projection: k
                          TableScan: t
                """, """
                Projection: s.k AS k
                  SubqueryAlias: s
                    Projection: k
                      Limit: fetch=2 offset=3
                        TableScan: t
                """);
    }

    @Test
    void intoEveryUnionInputKeepingTheLimitAbove() {
        assertRewrite(rule, sql("SELECT k FROM t UNION ALL SELECT k FROM u LIMIT 5 OFFSET 1"), """
                Limit: fetch=5 offset=1
                  Union: all
                    Projection: k
                      TableScan: t
                    Projection: k
                      TableScan: u
                """, """
                Limit: fetch=5 offset=1
                  Union: all
                    Projection: k
                      Limit: fetch=6
                        TableScan: t
                    Projection: k
                      Limit: fetch=6
                        TableScan: u
                """);
    }
}
