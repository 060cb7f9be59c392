package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.plan;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlSetAndGroupingTest {
    @Test
    void intersectGroupsBothSidesTagged() {
        assertThat(plan("SELECT k, v FROM t INTERSECT SELECT k, a FROM u, t")).isEqualTo("""
                Projection: k, v
                  Filter: ((sum(__left_rows) > 0) AND (sum(__right_rows) > 0))
                    Aggregate: groupBy=[k, v], aggr=[sum(__left_rows), sum(__right_rows)]
                      Union: all
                        Projection: k, v, 1 AS __left_rows, 0 AS __right_rows
                          Projection: k, v
                            TableScan: t
                        Projection: k, a AS v, 0 AS __left_rows, 1 AS __right_rows
                          Projection: t.k AS k, u.a AS a
                            Join: CROSS
                              SubqueryAlias: u
                                TableScan: u
                              SubqueryAlias: t
                                TableScan: t
                """);
    }

    @Test
    void exceptKeepsGroupsOnlyTheLeftHas() {
        assertThat(plan("SELECT v FROM t EXCEPT SELECT a FROM u ORDER BY 1")).contains(
                "Filter: ((sum(__left_rows) > 0) AND (sum(__right_rows) = 0))").startsWith("Sort: v ASC NULLS LAST");
    }

    @Test
    void rollupIsOneAggregationPerPrefix() {
        assertThat(plan("SELECT k, flag, sum(v) FROM t GROUP BY ROLLUP (k, flag)")).isEqualTo("""
                Projection: k, flag, sum(v)
                  Union: all
                    Projection: k, flag, sum(v)
                      Aggregate: groupBy=[k, flag], aggr=[sum(v)]
                        TableScan: t
                    Projection: k, CAST(NULL AS bool) AS flag, sum(v)
                      Aggregate: groupBy=[k], aggr=[sum(v)]
                        TableScan: t
                    Projection: CAST(NULL AS utf8) AS k, CAST(NULL AS bool) AS flag, sum(v)
                      Aggregate: groupBy=[], aggr=[sum(v)]
                        TableScan: t
                """);
    }

    @Test
    void cubeAndGroupingSetsMultiplyWithPlainItems() {
        String cube = plan("SELECT day, k, flag, count(*) FROM t GROUP BY day, CUBE (k, flag)");
        assertThat(cube).contains("groupBy=[day, k, flag]", "groupBy=[day, k]", "groupBy=[day, flag]", "groupBy=[day]")
                .doesNotContain("groupBy=[]");
        String sets = plan("SELECT k, flag, count(*) FROM t GROUP BY GROUPING SETS ((k, flag), (k), ())");
        assertThat(sets).contains("groupBy=[k, flag]", "groupBy=[k]", "groupBy=[]");
    }
}
