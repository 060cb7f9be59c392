package io.sluice.physical;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.FileFormats;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.optimizer.LogicalOptimizer;
import io.sluice.physical.rules.PhysicalConfig;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole physical plans for real query shapes, from SQL over real files. */
class PlanShapesTest {
    @TempDir
    static Path dir;

    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    @BeforeAll
    static void files() throws Exception {
        // Sorted by id, four row groups: ids 0-2047, 2048-4095, 4096-6143, 6144-7999.
        CATALOG.register(FileFormats.register("t", FileFormat.PARQUET, ParquetFixtures.write(dir, "t",
                "SELECT range AS id, 'k' || (range % 5) AS k, range * 2 AS v FROM range(8000)")));
    }

    private static String plan(String sql) {
        var query = (io.sluice.sql.Statement.Query) SqlFrontEnd.parse(sql, CATALOG);
        var optimized = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder()).optimize(query.plan());
        ExecutionPlan physical = new PhysicalPlanner().plan(optimized);
        PhysicalConfig config = new PhysicalConfig(4);
        ExecutionPlan once = PhysicalOptimizer.standard().optimize(physical, config);
        assertThat(PhysicalOptimizer.standard().optimize(once, config).explain()).isEqualTo(once.explain());
        return once.explain().replace(dir.toString(), "DIR");
    }

    @Test
    void orderByLimitIsATopKBelowTheExchangeAndTheGlobalLimitIsAbsorbed() {
        assertThat(plan("SELECT id, v FROM t ORDER BY v DESC LIMIT 10")).isEqualTo("""
                SortExec: TopK(fetch=10), [v DESC NULLS LAST]  [single, order=v DESC NULLS LAST, est_rows=10]
                  RepartitionExec: single  [single, est_rows=40]
                    SortExec: TopK(fetch=10), [v DESC NULLS LAST], preserve_partitioning  [unknown(4), order=v DESC NULLS LAST, est_rows=40]
                      FileScanExec: t (parquet, 4 partitions) columns=[id, v]  [unknown(4), est_rows=8000]
                """);
    }

    @Test
    void limitWithoutOrderPutsALocalLimitBelowTheExchange() {
        assertThat(plan("SELECT id FROM t WHERE v > 10 LIMIT 5")).isEqualTo("""
                ProjectionExec: id  [single, est_rows=5]
                  GlobalLimitExec: fetch=5  [single, est_rows=5]
                    RepartitionExec: single  [single, est_rows=20]
                      LocalLimitExec: fetch=5  [unknown(4), est_rows=20]
                        ProjectionExec: id  [unknown(4), est_rows=7995]
                          FilterExec: (v > 10)  [unknown(4), est_rows=7995]
                            FileScanExec: t (parquet, 4 partitions) columns=[id, v] pruning=[(v > 10)]  [unknown(4), est_rows=8000]
                """);
    }

    @Test
    void parquetFilterPrunesRowGroupsAndKeepsTheResidual() {
        assertThat(plan("SELECT k, v FROM t WHERE id >= 2500 AND v < 10000")).isEqualTo("""
                ProjectionExec: k, v  [unknown(2), est_rows=3438]
                  FilterExec: ((id >= 2500) AND (v < 10000))  [unknown(2), est_rows=3438]
                    FileScanExec: t (parquet, 2 partitions) columns=[id, k, v] pruning=[(id >= 2500), (v < 10000)]  [unknown(2), est_rows=8000]
                """);
    }

    @Test
    void filterProvingNoRowGroupMatchesLeavesAnEmptyScan() {
        assertThat(plan("SELECT count(*) FROM t WHERE id > 100000")).contains(
                "FileScanExec: t (parquet, 0 partitions) columns=[id] pruning=[(id > 100000)]  [single, est_rows=8000]");
    }

    @Test
    void aggregateShufflesOnceOnItsKeys() {
        assertThat(plan("SELECT k, sum(v) AS s FROM t GROUP BY k")).isEqualTo("""
                ProjectionExec: k, sum(v) AS s  [hash([k], 4), est_rows=5]
                  HashAggregateExec: mode=final, groupBy=[k], aggr=[sum(v)]  [hash([k], 4), est_rows=5]
                    RepartitionExec: hash([k], 4)  [hash([k], 4), est_rows=5]
                      HashAggregateExec: mode=partial, groupBy=[k], aggr=[sum(v)]  [unknown(4), est_rows=5]
                        FileScanExec: t (parquet, 4 partitions) columns=[k, v]  [unknown(4), est_rows=8000]
                """);
    }

    /**
     * Two windows over the same partition key: the lower (longer sort) gets the exchange and sort
     * through its declared requirements; the upper finds them met and adds nothing.
     */
    @Test
    void windowsShareOneExchangeAndSort() {
        assertThat(plan("SELECT k, id, row_number() OVER (PARTITION BY k ORDER BY id) AS rn, "
                + "sum(v) OVER (PARTITION BY k) AS total FROM t")).isEqualTo("""
                ProjectionExec: k, id, row_number() OVER (PARTITION BY k ORDER BY id ASC NULLS LAST) AS rn, sum(v) OVER (PARTITION BY k) AS total  [hash([k], 4), order=k ASC NULLS LAST, id ASC NULLS LAST, est_rows=8000]
                  WindowExec: sum(v) OVER (PARTITION BY k)  [hash([k], 4), order=k ASC NULLS LAST, id ASC NULLS LAST, est_rows=8000]
                    WindowExec: row_number() OVER (PARTITION BY k ORDER BY id ASC NULLS LAST)  [hash([k], 4), order=k ASC NULLS LAST, id ASC NULLS LAST, est_rows=8000]
                      SortExec: [k ASC NULLS LAST, id ASC NULLS LAST], preserve_partitioning  [hash([k], 4), order=k ASC NULLS LAST, id ASC NULLS LAST, est_rows=8000]
                        RepartitionExec: hash([k], 4)  [hash([k], 4), est_rows=8000]
                          FileScanExec: t (parquet, 4 partitions) columns=[id, k, v]  [unknown(4), est_rows=8000]
                """);
    }

    /** A window partitioned by the grouping key reads the aggregate's hash exchange: only a local sort. */
    @Test
    void windowOverAnAggregateOnItsKeyNeedsNoSecondExchange() {
        assertThat(plan("SELECT k, sum(v) AS s, rank() OVER (PARTITION BY k ORDER BY sum(v) DESC) AS r FROM t GROUP BY k"))
                .isEqualTo("""
                ProjectionExec: k, sum(v) AS s, rank() OVER (PARTITION BY k ORDER BY sum(v) DESC NULLS LAST) AS r  [hash([k], 4), order=k ASC NULLS LAST, s DESC NULLS LAST, est_rows=5]
                  WindowExec: rank() OVER (PARTITION BY k ORDER BY sum(v) DESC NULLS LAST)  [hash([k], 4), order=k ASC NULLS LAST, sum(v) DESC NULLS LAST, est_rows=5]
                    SortExec: [k ASC NULLS LAST, sum(v) DESC NULLS LAST], preserve_partitioning  [hash([k], 4), order=k ASC NULLS LAST, sum(v) DESC NULLS LAST, est_rows=5]
                      HashAggregateExec: mode=final, groupBy=[k], aggr=[sum(v)]  [hash([k], 4), est_rows=5]
                        RepartitionExec: hash([k], 4)  [hash([k], 4), est_rows=5]
                          HashAggregateExec: mode=partial, groupBy=[k], aggr=[sum(v)]  [unknown(4), est_rows=5]
                            FileScanExec: t (parquet, 4 partitions) columns=[k, v]  [unknown(4), est_rows=8000]
                """);
    }
}
