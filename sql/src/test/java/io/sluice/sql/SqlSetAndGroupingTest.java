package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.logical.plan.GroupingSetChoice;
import io.sluice.logical.plan.LogicalPlan;
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

    /** Both plans are offered; the optimizer chooses ({@code ChooseGroupingSetPlanTest}). */
    @Test
    void rollupIsOneAggregationOfTheFinestGroupsRepeatedPerPrefixAndMergedOrOnePerPrefix() {
        assertThat(plan("SELECT k, flag, sum(v), grouping(flag) FROM t GROUP BY ROLLUP (k, flag)")).isEqualTo("""
                Projection: k, flag, sum(v), grouping(flag)
                  GroupingSetChoice: groupBy=[k, flag]
                    Projection: k, flag, __merged0 AS sum(v), CASE WHEN (__set = 0) THEN 0 WHEN (__set = 1) THEN 1 WHEN (__set = 2) THEN 1 ELSE 0 END AS grouping(flag)
                      Aggregate: groupBy=[k, flag, __set], aggr=[sum(__partial0) AS __merged0]
                        Projection: CASE WHEN ((__set = 0) OR (__set = 1)) THEN k END AS k, CASE WHEN (__set = 0) THEN flag END AS flag, __partial0, __set
                          Filter: (NOT __guard OR (__set = 2))
                            Generate: explode(array(0, 1, 2)) AS __set
                              Union: all
                                Projection: k, flag, __partial0, false AS __guard
                                  Aggregate: groupBy=[k, flag], aggr=[sum(v) AS __partial0]
                                    TableScan: t
                                Projection: NULL AS k, NULL AS flag, NULL AS __partial0, true AS __guard
                                  Aggregate: groupBy=[], aggr=[count(*)]
                                    EmptyRelation:\s
                    Union: all
                      Projection: k, flag, sum(v), 0 AS grouping(flag)
                        Aggregate: groupBy=[k, flag], aggr=[sum(v)]
                          TableScan: t
                      Projection: k, CAST(NULL AS bool) AS flag, sum(v), 1 AS grouping(flag)
                        Aggregate: groupBy=[k], aggr=[sum(v)]
                          TableScan: t
                      Projection: CAST(NULL AS utf8) AS k, CAST(NULL AS bool) AS flag, sum(v), 1 AS grouping(flag)
                        Aggregate: groupBy=[], aggr=[sum(v)]
                          TableScan: t
                """);
    }

    @Test
    void cubeBesidePlainItemsCountsFromTheFinestGroups() {
        assertThat(onePass("SELECT day, k, flag, count(*) FROM t GROUP BY day, CUBE (k, flag)")).isEqualTo("""
                  Projection: day, k, flag, __merged0 AS count(*)
                    Aggregate: groupBy=[day, k, flag, __set], aggr=[sum(__partial0) AS __merged0]
                      Projection: day, CASE WHEN ((__set = 0) OR (__set = 1)) THEN k END AS k, CASE WHEN ((__set = 0) OR (__set = 2)) THEN flag END AS flag, __partial0, __set
                        Generate: explode(array(0, 1, 2, 3)) AS __set
                          Aggregate: groupBy=[day, k, flag], aggr=[count(*) AS __partial0]
                            TableScan: t
                """);
    }

    @Test
    void avgMergesAsTheSumOfSumsOverTheSumOfCounts() {
        assertThat(onePass("SELECT k, avg(v) FROM t GROUP BY GROUPING SETS ((k), (flag))")).isEqualTo("""
                  Projection: k, flag, CASE WHEN (__merged0n > 0) THEN (CAST(__merged0 AS float64) / CAST(__merged0n AS float64)) END AS avg(v)
                    Aggregate: groupBy=[k, flag, __set], aggr=[sum(__partial0) AS __merged0, sum(__partial0n) AS __merged0n]
                      Projection: CASE WHEN (__set = 0) THEN k END AS k, CASE WHEN (__set = 1) THEN flag END AS flag, __partial0, __partial0n, __set
                        Generate: explode(array(0, 1)) AS __set
                          Aggregate: groupBy=[k, flag], aggr=[sum(v) AS __partial0, count(v) AS __partial0n]
                            TableScan: t
                """);
    }

    @Test
    void callsWithoutMergeablePartialsKeepOneAggregationPerSet() {
        String sets = plan("SELECT k, flag, stddev_samp(v) FROM t GROUP BY GROUPING SETS ((k, flag), (k), ())");
        assertThat(sets).contains("groupBy=[k, flag]", "groupBy=[k]", "groupBy=[]").doesNotContain("__set");
    }

    /** The one-pass plan the translation offers (indented as below the query's projection). */
    private static String onePass(String sql) {
        LogicalPlan choice = SqlTestTables.logical(sql).children().get(0);
        assertThat(choice).isInstanceOf(GroupingSetChoice.class);
        return ((GroupingSetChoice) choice).onePass().explain().indent(2);
    }
}
