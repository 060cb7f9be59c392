package io.sluice.physical;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.FileFormats;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.optimizer.LogicalOptimizer;
import io.sluice.physical.rules.JoinSelection;
import io.sluice.physical.rules.PhysicalConfig;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregate over a join on its grouping key shuffles each join input once and nothing between
 * the join and the aggregate: the join's output is hashed on one key and equal to the other, the
 * partial aggregate keeps that partitioning under its output names, and the final aggregate's
 * requirement is met. Joins are forced to partitioned hash joins (as {@code SET
 * sluice.join.broadcast-threshold = -1} would).
 */
class JoinAggregateShapesTest {
    @TempDir
    static Path dir;

    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    @BeforeAll
    static void files() throws Exception {
        CATALOG.register(FileFormats.register("a", FileFormat.PARQUET, ParquetFixtures.write(dir, "a",
                "SELECT range AS k, range * 3 AS w FROM range(5000)")));
        CATALOG.register(FileFormats.register("b", FileFormat.PARQUET, ParquetFixtures.write(dir, "b",
                "SELECT range % 100 AS k, range AS v FROM range(5000)")));
    }

    private static String plan(String sql, JoinSelection joins) {
        var query = (io.sluice.sql.Statement.Query) SqlFrontEnd.parse(sql, CATALOG);
        var optimized = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder()).optimize(query.plan());
        ExecutionPlan physical = new PhysicalPlanner(joins).plan(optimized);
        PhysicalConfig config = new PhysicalConfig(4);
        ExecutionPlan once = PhysicalOptimizer.standard().optimize(physical, config);
        assertThat(PhysicalOptimizer.standard().optimize(once, config).explain()).isEqualTo(once.explain());
        return once.explain().replace(dir.toString(), "DIR");
    }

    private static final JoinSelection PARTITIONED_HASH = new JoinSelection(-1, Long.MAX_VALUE);
    private static final JoinSelection SORT_MERGE = new JoinSelection(-1, 0);

    private static long repartitions(String plan) {
        return plan.lines().filter(l -> l.trim().startsWith("RepartitionExec")).count();
    }

    @Test
    void groupByTheLeftJoinKeyShufflesEachSideOnce() {
        String plan = plan("SELECT a.k, sum(b.v) FROM a JOIN b ON a.k = b.k GROUP BY a.k", PARTITIONED_HASH);
        assertThat(plan).isEqualTo("""
                ProjectionExec: a.k AS k, sum(b.v)  [hash([k], 4), est_rows=100]
                  HashAggregateExec: mode=final, groupBy=[a.k], aggr=[sum(b.v)]  [hash([a.k], 4), est_rows=100]
                    HashAggregateExec: mode=partial, groupBy=[a.k], aggr=[sum(b.v)]  [hash([a.k], 4), est_rows=100]
                      HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [hash([b.k], 4), est_rows=5000]
                        RepartitionExec: hash([a.k], 4)  [hash([a.k], 4), est_rows=5000]
                          ProjectionExec: k AS a.k  [unknown(3), est_rows=5000]
                            FileScanExec: a (parquet, 3 partitions) columns=[k]  [unknown(3), est_rows=5000]
                        RepartitionExec: hash([b.k], 4)  [hash([b.k], 4), est_rows=5000]
                          ProjectionExec: k AS b.k, v AS b.v  [unknown(3), est_rows=5000]
                            FileScanExec: b (parquet, 3 partitions) columns=[k, v]  [unknown(3), est_rows=5000]
                """);
        assertThat(repartitions(plan)).isEqualTo(2);
    }

    @Test
    void groupByTheRightJoinKeyShufflesEachSideOnce() {
        String plan = plan("SELECT b.k, sum(b.v) FROM a JOIN b ON a.k = b.k GROUP BY b.k", PARTITIONED_HASH);
        assertThat(plan).isEqualTo("""
                ProjectionExec: b.k AS k, sum(b.v)  [hash([k], 4), est_rows=100]
                  HashAggregateExec: mode=final, groupBy=[b.k], aggr=[sum(b.v)]  [hash([b.k], 4), est_rows=100]
                    HashAggregateExec: mode=partial, groupBy=[b.k], aggr=[sum(b.v)]  [hash([b.k], 4), est_rows=100]
                      HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [hash([b.k], 4), est_rows=5000]
                        RepartitionExec: hash([a.k], 4)  [hash([a.k], 4), est_rows=5000]
                          ProjectionExec: k AS a.k  [unknown(3), est_rows=5000]
                            FileScanExec: a (parquet, 3 partitions) columns=[k]  [unknown(3), est_rows=5000]
                        RepartitionExec: hash([b.k], 4)  [hash([b.k], 4), est_rows=5000]
                          ProjectionExec: k AS b.k, v AS b.v  [unknown(3), est_rows=5000]
                            FileScanExec: b (parquet, 3 partitions) columns=[k, v]  [unknown(3), est_rows=5000]
                """);
        assertThat(repartitions(plan)).isEqualTo(2);
    }

    /**
     * The same over a sort-merge join: its output is range-partitioned on the key, which the
     * partial aggregate carries through to the final one.
     */
    @Test
    void groupByTheJoinKeyOverASortMergeJoinShufflesEachSideOnce() {
        String plan = plan("SELECT a.k, sum(b.v) FROM a JOIN b ON a.k = b.k GROUP BY a.k", SORT_MERGE);
        assertThat(repartitions(plan)).as(plan).isEqualTo(2);
        assertThat(plan).contains("SortMergeJoinExec");
    }
}
