package io.sluice.physical.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.datasource.FileFormats;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.optimizer.LogicalOptimizer;
import io.sluice.physical.PhysicalPlanner;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Join strategies from the inputs' estimated bytes after their filters: a side that a filter makes
 * small is broadcast although its file is large; two large sides hash-partition and build the
 * smaller; the threshold is compared with the same estimate {@code EXPLAIN} shows.
 */
class JoinSelectionTest {
    @TempDir
    static Path dir;

    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    @BeforeAll
    static void files() throws Exception {
        CATALOG.register(FileFormats.register("big", FileFormat.PARQUET, ParquetFixtures.write(dir, "big",
                "SELECT range AS id, range % 1000 AS k, range * 2 AS v FROM range(200000)")));
        CATALOG.register(FileFormats.register("mid", FileFormat.PARQUET, ParquetFixtures.write(dir, "mid",
                "SELECT range AS k, range % 7 AS w FROM range(50000)")));
    }

    private static LogicalPlan optimized(String sql) {
        return LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder()).optimize(((Statement.Query) SqlFrontEnd.parse(sql, CATALOG)).plan());
    }

    private static String joinLine(String sql, JoinSelection joins) {
        String plan = new PhysicalPlanner(joins).plan(optimized(sql)).explain();
        return plan.lines().filter(l -> l.contains("JoinExec")).findFirst().orElseThrow().trim();
    }

    /** Estimated bytes of the plan's inputs: big is 200000 rows of 3 longs, mid 50000 rows of 2. */
    @Test
    void estimatesComeFromTheFootersAndFilters() {
        var stats = new StatisticsEstimator();
        assertThat(stats.of(optimized("SELECT * FROM big")).rowCount()).isEqualTo(200000);
        assertThat(stats.of(optimized("SELECT * FROM mid WHERE k < 500")).rowCount()).isCloseTo(500, within(1.0));
    }

    @Test
    void aFilteredSideIsBroadcastEvenWhenItsFileIsLarge() {
        // 512 KiB: mid (50000 rows of two longs, 800 kB in memory) is above it, mid with k < 500 far below.
        JoinSelection halfMiB = new JoinSelection(512 << 10, 512L << 20);
        assertThat(joinLine("SELECT big.v, mid.w FROM big JOIN mid ON big.k = mid.k WHERE mid.k < 500", halfMiB))
                .startsWith("HashJoinExec: mode=collect_right");
        assertThat(joinLine("SELECT big.v, mid.w FROM big JOIN mid ON big.k = mid.k", halfMiB))
                .startsWith("HashJoinExec: mode=partitioned");
    }

    @Test
    void partitionedJoinsBuildTheSmallerEstimatedSide() {
        JoinSelection never = new JoinSelection(-1, Long.MAX_VALUE);
        // mid is smaller: built whether it is written on the left or the right (inputs swapped).
        assertThat(joinLine("SELECT big.v, mid.w FROM big JOIN mid ON big.k = mid.k", never))
                .startsWith("HashJoinExec: mode=partitioned, type=inner, on=[(mid.k, big.k)], build=left");
        assertThat(joinLine("SELECT big.v, mid.w FROM mid JOIN big ON big.k = mid.k", never))
                .startsWith("HashJoinExec: mode=partitioned, type=inner, on=[(mid.k, big.k)], build=left");
    }

    private static java.util.List<String> joinLines(String sql, JoinSelection joins) {
        String plan = new PhysicalPlanner(joins).plan(optimized(sql)).explain();
        return plan.lines().filter(l -> l.contains("JoinExec")).map(String::trim).toList();
    }

    /**
     * A left-preserving join whose left is less than half its right builds the left: an outer join
     * of a small table to a large one (TPC-H Q13's customer and orders), and EXISTS / NOT EXISTS with
     * a residual condition from a small outer query into a large table (Q21's lineitem l1 against
     * l2 and l3); a large left keeps the right built.
     */
    @Test
    void leftPreservingJoinsBuildASmallLeft() {
        JoinSelection never = new JoinSelection(-1, Long.MAX_VALUE);
        assertThat(joinLine("SELECT mid.k, big.v FROM mid LEFT JOIN big ON mid.k = big.k AND big.v > mid.w", never))
                .startsWith("HashJoinExec: mode=partitioned, type=left, on=[(mid.k, big.k)], filter=(big.v > mid.w), build=left");
        assertThat(joinLines("SELECT mid.k FROM mid WHERE EXISTS (SELECT 1 FROM big WHERE big.k = mid.k AND big.id <> mid.w)"
                + " AND NOT EXISTS (SELECT 1 FROM big b3 WHERE b3.k = mid.k AND b3.v <> mid.w)", never))
                .allSatisfy(line -> assertThat(line).matches("HashJoinExec: mode=partitioned, type=left_(semi|anti), .*build=left.*"))
                .hasSize(2);
        assertThat(joinLine("SELECT big.v, mid.w FROM big LEFT JOIN mid ON big.k = mid.k", never))
                .startsWith("HashJoinExec: mode=partitioned, type=left, on=[(big.k, mid.k)], build=right");
        assertThat(joinLine("SELECT big.v FROM big WHERE EXISTS (SELECT 1 FROM mid WHERE big.k = mid.k AND mid.w <> big.id)", never))
                .contains("build=right");
    }
}
