package io.sluice.physical;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.FileFormats;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.optimizer.LogicalOptimizer;
import io.sluice.physical.rules.JoinSelection;
import io.sluice.physical.rules.PhysicalConfig;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Physical planning of a plan that is a DAG: a chain of WITH queries each joined to itself has
 * 2^depth paths. The planner plans each logical node once and every physical rule rewrites each
 * operator once, so the operators stay shared (a few per level) and depth 30 plans at once; at
 * depth 2 the whole plan is checked, a shared operator printed once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedNodePlanningTest {
    @TempDir
    static Path dir;

    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();
    /** Joins that never broadcast: each level's two inputs are the same operator, with no exchange between. */
    private static final JoinSelection PARTITIONED = new JoinSelection(-1, JoinSelection.DEFAULT.sortMergeThresholdBytes(),
            JoinSelection.DEFAULT.runtimeFilterMaxBuildBytes());

    @BeforeAll
    static void files() throws Exception {
        CATALOG.register(FileFormats.register("t", FileFormat.PARQUET, ParquetFixtures.write(dir, "t",
                "SELECT 'k' || (range % 5) AS k, range AS v FROM range(1000)")));
    }

    private static String selfJoinChain(int levels) {
        StringBuilder sql = new StringBuilder("WITH c0 AS (SELECT k, count(*) AS n FROM t GROUP BY k)");
        for (int i = 1; i <= levels; i++) {
            sql.append(", c").append(i).append(" AS (SELECT a.k, a.n + b.n AS n FROM c").append(i - 1)
                    .append(" a JOIN c").append(i - 1).append(" b ON a.k = b.k)");
        }
        return sql.append(" SELECT k, n FROM c").append(levels).toString();
    }

    private static ExecutionPlan plan(int levels, JoinSelection joins) {
        return plan(selfJoinChain(levels), joins);
    }

    private static ExecutionPlan plan(String sql, JoinSelection joins) {
        LogicalPlan logical = ((Statement.Query) SqlFrontEnd.parse(sql, CATALOG)).plan();
        LogicalPlan optimized = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder())
                .optimize(logical);
        ExecutionPlan physical = new PhysicalPlanner(joins).plan(optimized);
        return PhysicalOptimizer.standard().optimize(physical, new PhysicalConfig(4));
    }

    @Test
    void aSelfJoinedChainIsPlannedOnceOperatorPerLogicalNode() {
        for (JoinSelection joins : new JoinSelection[] {JoinSelection.DEFAULT, PARTITIONED}) {
            ExecutionPlan plan = plan(30, joins);
            assertThat(ExecutionPlans.count(plan)).as("distinct operators").isLessThan(10 * 32);
            assertThat(plan.explain().length()).as("EXPLAIN text").isLessThan(1 << 16);
        }
    }

    @Test
    void theWholePlanOfAShortChainPrintsASharedOperatorOnce() {
        assertThat(plan(2, PARTITIONED).explain().replace(dir.toString(), "DIR"))
                .isEqualTo("""
                ProjectionExec: c2.k AS k, c2.n AS n  [single, est_rows=5]
                  ProjectionExec: k AS c2.k, n AS c2.n  [single, est_rows=5]
                    ProjectionExec: a.k AS k, (a.n + b.n) AS n  [single, est_rows=5]
                      HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [single, est_rows=5]
                        ProjectionExec: k AS a.k, n AS a.n  [single, est_rows=5]
                          ProjectionExec: a.k AS k, (a.n + b.n) AS n  [single, est_rows=5]
                            HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [single, est_rows=5]
                              ProjectionExec: k AS a.k, n AS a.n  [single, est_rows=5]
                                ProjectionExec: k, count(*) AS n  [single, est_rows=5]
                                  HashAggregateExec: mode=final, groupBy=[k], aggr=[count(*)]  [single, est_rows=5]
                                    HashAggregateExec: mode=partial, groupBy=[k], aggr=[count(*)]  [single, est_rows=5]
                                      FileScanExec: t (parquet, 1 partitions) columns=[k]  [single, est_rows=1000]
                              ProjectionExec: k AS b.k, n AS b.n  [single, est_rows=5]
                                ProjectionExec: k, count(*) AS n  [single, est_rows=5]  (shared: printed above)
                        ProjectionExec: k AS b.k, n AS b.n  [single, est_rows=5]
                          ProjectionExec: a.k AS k, (a.n + b.n) AS n  [single, est_rows=5]  (shared: printed above)
                """);
    }

    /**
     * A WITH query that aggregates, read by three consumers with different filters: its
     * aggregation is planned once and read by all three (each consumer's filter stays above it,
     * not pushed into a copy of its own), printed once. Over several partitions the exchange below
     * its final aggregate makes the scan and partial aggregate one stage that all three read.
     */
    @Test
    void anAggregatingWithQueryReadByThreeFilteredConsumersIsPlannedOnce() {
        String sql = "WITH rev AS (SELECT k, count(*) AS n, sum(v) AS s FROM t GROUP BY k) "
                + "SELECT 'a' AS c, sum(s), count(*) FROM rev WHERE k = 'k1' "
                + "UNION ALL SELECT 'b', sum(s), count(*) FROM rev WHERE k < 'k3' AND n > 1 "
                + "UNION ALL SELECT 'c', sum(s), count(*) FROM rev WHERE n > 100";
        String text = plan(sql, JoinSelection.DEFAULT).explain().replace(dir.toString(), "DIR");
        assertThat(text).isEqualTo("""
                UnionExec  [unknown(3), est_rows=3]
                  ProjectionExec: 'a' AS c, sum(rev.s), count(*)  [single, est_rows=1]
                    HashAggregateExec: mode=final, groupBy=[], aggr=[sum(rev.s), count(*)]  [single, est_rows=1]
                      HashAggregateExec: mode=partial, groupBy=[], aggr=[sum(rev.s), count(*)]  [single, est_rows=1]
                        ProjectionExec: s AS rev.s  [single, est_rows=1]
                          ProjectionExec: s  [single, est_rows=1]
                            ProjectionExec: k, count(*) AS n, sum(v) AS s  [single, est_rows=1]
                              FilterExec: (k = 'k1')  [single, est_rows=5]
                                HashAggregateExec: mode=final, groupBy=[k], aggr=[count(*), sum(v)]  [single, est_rows=5]
                                  HashAggregateExec: mode=partial, groupBy=[k], aggr=[count(*), sum(v)]  [single, est_rows=5]
                                    FileScanExec: t (parquet, 1 partitions) columns=[k, v]  [single, est_rows=1000]
                  ProjectionExec: 'b' AS c, sum(rev.s), count(*)  [single, est_rows=1]
                    ProjectionExec: 'b', sum(rev.s), count(*)  [single, est_rows=1]
                      HashAggregateExec: mode=final, groupBy=[], aggr=[sum(rev.s), count(*)]  [single, est_rows=1]
                        HashAggregateExec: mode=partial, groupBy=[], aggr=[sum(rev.s), count(*)]  [single, est_rows=1]
                          ProjectionExec: s AS rev.s  [single, est_rows=1]
                            ProjectionExec: s  [single, est_rows=1]
                              ProjectionExec: k, count(*) AS n, sum(v) AS s  [single, est_rows=1]
                                FilterExec: ((k < 'k3') AND (count(*) > 1))  [single, est_rows=5]
                                  HashAggregateExec: mode=final, groupBy=[k], aggr=[count(*), sum(v)]  [single, est_rows=5]  (shared: printed above)
                  ProjectionExec: 'c' AS c, sum(rev.s), count(*)  [single, est_rows=1]
                    ProjectionExec: 'c', sum(rev.s), count(*)  [single, est_rows=1]
                      HashAggregateExec: mode=final, groupBy=[], aggr=[sum(rev.s), count(*)]  [single, est_rows=1]
                        HashAggregateExec: mode=partial, groupBy=[], aggr=[sum(rev.s), count(*)]  [single, est_rows=1]
                          ProjectionExec: s AS rev.s  [single, est_rows=2]
                            ProjectionExec: s  [single, est_rows=2]
                              ProjectionExec: k, count(*) AS n, sum(v) AS s  [single, est_rows=2]
                                FilterExec: (count(*) > 100)  [single, est_rows=5]
                                  HashAggregateExec: mode=final, groupBy=[k], aggr=[count(*), sum(v)]  [single, est_rows=5]  (shared: printed above)
                """);
    }
}
