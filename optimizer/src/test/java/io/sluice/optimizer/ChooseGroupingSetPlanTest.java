package io.sluice.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.FileFormats;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grouping sets computed in one pass or once per set, chosen from the finest grouping's estimated
 * groups against the input's rows (estimates from the Parquet footers of a lineitem-shaped table):
 * whole plans after the whole optimizer.
 */
class ChooseGroupingSetPlanTest {
    @TempDir
    static Path dir;

    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    @BeforeAll
    static void tables() throws Exception {
        CATALOG.register(FileFormats.register("lineitem", FileFormat.PARQUET, ParquetFixtures.write(dir, "lineitem",
                "SELECT i // 4 + 1 AS l_orderkey, i % 4 + 1 AS l_linenumber, i % 3 AS l_flag, CAST(i % 50 AS DOUBLE) AS l_quantity "
                        + "FROM range(40000) t(i)")));
    }

    private static String optimized(String sql) {
        LogicalPlan plan = ((Statement.Query) SqlFrontEnd.parse(sql, CATALOG)).plan();
        LogicalOptimizer optimizer = new LogicalOptimizer(LogicalOptimizer.standardRules(StatisticsEstimator::new,
                new EvaluatingConstantFolder()), 8);
        LogicalOptimizer.Result result = optimizer.run(plan);
        assertThat(result.fixedPoint()).isTrue();
        return result.plan().explain();
    }

    /** 40000 finest groups of 40000 rows: repeating them per set costs more than reading the input per set. */
    @Test
    void aRollupOverAKeyAggregatesOncePerSet() {
        assertThat(optimized("SELECT l_orderkey, l_linenumber, sum(l_quantity), count(*) FROM lineitem "
                + "GROUP BY ROLLUP (l_orderkey, l_linenumber)")).isEqualTo("""
                Union: all
                  Aggregate: groupBy=[l_orderkey, l_linenumber], aggr=[sum(l_quantity), count(*)]
                    TableScan: lineitem projection=[l_orderkey, l_linenumber, l_quantity]
                  Projection: l_orderkey, NULL AS l_linenumber, sum(l_quantity), count(*)
                    Aggregate: groupBy=[l_orderkey], aggr=[sum(l_quantity), count(*)]
                      TableScan: lineitem projection=[l_orderkey, l_quantity]
                  Projection: NULL AS l_orderkey, NULL AS l_linenumber, sum(l_quantity), count(*)
                    Aggregate: groupBy=[], aggr=[sum(l_quantity), count(*)]
                      TableScan: lineitem projection=[l_quantity]
                """);
    }

    /** 12 finest groups of 40000 rows: one pass over the input, its groups repeated per set. */
    @Test
    void aRollupOverFewGroupsAggregatesTheInputOnce() {
        assertThat(optimized("SELECT l_flag, l_linenumber, sum(l_quantity), count(*) FROM lineitem "
                + "GROUP BY ROLLUP (l_flag, l_linenumber)")).isEqualTo("""
                Projection: l_flag, l_linenumber, __merged0 AS sum(l_quantity), CASE WHEN __merged1 IS NULL THEN 0 ELSE __merged1 END AS count(*)
                  Aggregate: groupBy=[l_flag, l_linenumber, __set], aggr=[sum(__partial0) AS __merged0, sum(__partial1) AS __merged1]
                    Projection: CASE WHEN ((__set = 0) OR (__set = 1)) THEN l_flag END AS l_flag, CASE WHEN (__set = 0) THEN l_linenumber END AS l_linenumber, __partial0, __partial1, __set
                      Filter: (NOT __guard OR (__set = 2))
                        Generate: explode(array(0, 1, 2)) AS __set
                          Union: all
                            Projection: l_flag, l_linenumber, __partial0, __partial1, false AS __guard
                              Aggregate: groupBy=[l_flag, l_linenumber], aggr=[sum(l_quantity) AS __partial0, count(*) AS __partial1]
                                TableScan: lineitem projection=[l_linenumber, l_flag, l_quantity]
                            Projection: NULL AS l_flag, NULL AS l_linenumber, NULL AS __partial0, NULL AS __partial1, true AS __guard
                              Aggregate: groupBy=[], aggr=[count(*)]
                                EmptyRelation:\s
                """);
    }
}
