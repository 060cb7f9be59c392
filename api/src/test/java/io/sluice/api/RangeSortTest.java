package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Global ORDER BY as range repartition, per-partition sort and ordered gather, on a real embedded
 * cluster (two workers) over Parquet, checked row for row (order included) against DuckDB: every
 * key type, several keys, both directions and both NULL placements; the gather-and-sort plan under
 * {@code SET sluice.sort.range-partitioned = false}; and a sort-merge join, aggregate and ORDER BY
 * on the join key that needs no exchange beyond the join's two.
 */
class RangeSortTest {
    /** Range-partitioned sorts however small the input (the tables here are below the default's floor). */
    private static final String RANGE = "SET sluice.sort.range-partitioned.min-rows = 0; ";
    private static final String SMJ = "SET sluice.join.broadcast-threshold = -1; SET sluice.join.sort-merge-threshold = 0; ";

    @TempDir
    static Path data;

    private static Session session;
    private static DuckDbOracle duck;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        java.nio.file.Files.createDirectories(data.resolve("t"));
        // i unique; k skewed small ints; s strings with NULLs; d decimals with NULLs; dt dates
        String rows = "SELECT i, CAST(floor(sqrt(i % 2000)) AS BIGINT) AS k, "
                + "CASE WHEN i % 9 = 0 THEN NULL ELSE 's' || (i * 7919 % 1000) END AS s, "
                + "CASE WHEN i % 13 = 0 THEN NULL ELSE CAST(((i * 31) % 5000 - 2500) / 100.0 AS DECIMAL(10,2)) END AS d, "
                + "DATE '2020-01-01' + CAST(i * 17 % 3000 AS INTEGER) AS dt, CAST(i % 101 AS DOUBLE) * 0.5 AS x "
                + "FROM range(FROM_ROW, TO_ROW) r(i)";
        for (int f = 0; f < 3; f++) {
            duck.execute("COPY (" + rows.replace("FROM_ROW", String.valueOf(f * 7000)).replace("TO_ROW",
                    String.valueOf((f + 1) * 7000)) + ") TO '" + data.resolve("t/part-" + f + ".parquet") + "' (FORMAT PARQUET)");
        }
        duck.execute("COPY (SELECT i AS k, 'u' || i AS label, CAST(i / 8.0 AS DECIMAL(14,4)) AS d4 FROM range(0, 60) r(i)) TO '"
                + data.resolve("u.parquet") + "' (FORMAT PARQUET)");
        duck.execute("CREATE VIEW t AS SELECT * FROM read_parquet('" + data + "/t/*.parquet')");
        duck.execute("CREATE VIEW u AS SELECT * FROM read_parquet('" + data.resolve("u.parquet") + "')");
        session = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2).withShufflePartitions(4)));
        session.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + data.resolve("t") + "';"
                + "CREATE EXTERNAL TABLE u STORED AS PARQUET LOCATION '" + data.resolve("u.parquet") + "'");
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    @AfterEach
    void noLeakedBuffers() throws InterruptedException {
        ClusterTesting.awaitNoLeakedBuffers(session);
    }

    private static String explain(String sql) {
        return explain("", sql);
    }

    private static String explain(String set, String sql) {
        return String.join("\n", session.sql(RANGE + set + "EXPLAIN " + sql).collect().rows().stream().map(r -> String.valueOf(r.get(0))).toList());
    }

    /** The physical plan section of EXPLAIN. */
    private static String physical(String sql) {
        return physical("", sql);
    }

    private static String physical(String set, String sql) {
        String text = explain(set, sql);
        return text.substring(text.indexOf("== Physical Plan =="), text.indexOf("== Stages =="));
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private void assertOrderedAsDuckDb(String set, String sql) throws Exception {
        List<List<Object>> expected = duck.query(sql);
        assertThat(DuckDbOracle.normalize(session.sql(RANGE + set + sql).collect())).as(set + sql).isEqualTo(expected);
    }

    @Test
    void globalOrderByIsRangeRepartitionLocalSortAndOrderedGather() throws Exception {
        String sql = "SELECT x, i FROM t ORDER BY x, i";
        String plan = physical(sql);
        assertThat(plan).contains("OrderedGatherExec: [x ASC NULLS LAST, i ASC NULLS LAST]")
                .contains("SortExec: [x ASC NULLS LAST, i ASC NULLS LAST], preserve_partitioning")
                .containsPattern("RepartitionExec: range\\(\\[x ASC NULLS LAST, i ASC NULLS LAST\\], range-[0-9a-f]+\\(unresolved\\), 4\\)")
                .doesNotContain("RepartitionExec: single");
        // at the root the coordinator's in-order collection is the gather: one map stage and a 4-task result stage
        String stages = explain(sql).substring(explain(sql).indexOf("== Stages =="));
        assertThat(stages).contains("Stage 1 (4 tasks, after stages 0, result)").doesNotContain("Stage 2");
        assertOrderedAsDuckDb("", sql);
    }

    /** The sampling run that resolves the split points scans only the key columns. */
    @Test
    void samplingReadsOnlyTheKeyColumns() throws Exception {
        List<String> samplingPlans = new java.util.concurrent.CopyOnWriteArrayList<>();
        DagScheduler.StageListener listener = new DagScheduler.StageListener() {
            @Override
            public void stageCompleted(String jobId, int stageId) {
            }

            @Override
            public void stageSubmitted(String jobId, int stageId, ShuffleWriterExec plan, List<Integer> partitions) {
                if (stageId >= DagScheduler.SAMPLE_STAGE_OFFSET) {
                    samplingPlans.add(plan.explain());
                }
            }
        };
        session.localCluster().coordinator().addStageListener(listener);
        try {
            assertOrderedAsDuckDb("", "SELECT i, s, d, dt FROM t ORDER BY dt, i");
        } finally {
            session.localCluster().coordinator().removeStageListener(listener);
        }
        assertThat(samplingPlans).hasSize(1);
        assertThat(samplingPlans.get(0)).contains("SampleExec").contains("columns=[dt, i]").doesNotContain("columns=[i, s, d, dt]");
    }

    @Test
    void explainAnalyzeShowsBoundariesAndRowsPerPartition() {
        String text = String.join("\n", session.sql(RANGE + "EXPLAIN ANALYZE SELECT dt, i FROM t ORDER BY dt DESC, i").collect().rows().stream()
                .map(r -> String.valueOf(r.get(0))).toList());
        Matcher splits = Pattern.compile("split points (range-[0-9a-f]+): 3 boundaries \\[\\[(\\d{4}-\\d\\d-\\d\\d), \\d+\\], ").matcher(text);
        assertThat(splits.find()).as(text).isTrue();
        assertThat(text).contains("range([dt DESC NULLS LAST, i ASC NULLS LAST], " + splits.group(1));
        Matcher rows = Pattern.compile("rows per partition: \\[(\\d+), (\\d+), (\\d+), (\\d+)\\]").matcher(text);
        assertThat(rows.find()).as(text).isTrue();
        long total = 0;
        for (int p = 1; p <= 4; p++) {
            long n = Long.parseLong(rows.group(p));
            assertThat(n).as("partition " + p + "\n" + text).isBetween(21_000L / 8, 21_000L / 2);
            total += n;
        }
        assertThat(total).isEqualTo(21_000);
    }

    @Test
    void everyKeyTypeDirectionAndNullPlacement() throws Exception {
        String[] orders = {
            "s DESC NULLS FIRST, i",
            "s ASC NULLS LAST, i DESC",
            "d, i",
            "d DESC NULLS LAST, i",
            "d NULLS FIRST, i",
            "dt DESC, i DESC",
            "k DESC, dt, i",
            "x DESC, s NULLS FIRST, i",
            "s, s DESC, i", // one key twice: the sample names its columns apart
        };
        for (String order : orders) {
            assertOrderedAsDuckDb("", "SELECT i, k, s, d, dt FROM t ORDER BY " + order);
        }
    }

    @Test
    void hiddenSortKeyAndFilterAboveTheGather() throws Exception {
        String sql = "SELECT i FROM t WHERE i % 3 = 0 ORDER BY d DESC NULLS FIRST, i";
        assertThat(physical(sql)).contains("OrderedGatherExec").doesNotContain("RepartitionExec: single");
        assertOrderedAsDuckDb("", sql);
    }

    /**
     * An ordered gather below an aggregate is a stage boundary (its reader states the gather's
     * order: StageCutterTest); the aggregate streams over it, and the outer ORDER BY, which the
     * optimizer dropped as already met by the aggregate's output order, still holds.
     */
    @Test
    void orderedGatherBelowAnAggregateKeepsItsOrderAcrossTheStageBoundary() throws Exception {
        String sql = "SELECT k, count(*) AS c, min(s) AS ms FROM (SELECT k, s FROM t ORDER BY k DESC) x GROUP BY k ORDER BY k DESC";
        String plan = physical(sql);
        assertThat(count(plan, "OrderedGatherExec")).as(plan).isEqualTo(1);
        assertThat(plan).contains("mode=final, sorted");
        assertOrderedAsDuckDb("", sql);
    }

    @Test
    void gatherAndSortWhenRangePartitionedSortIsOff() throws Exception {
        String off = "SET sluice.sort.range-partitioned = false; ";
        String sql = "SELECT s, i FROM t ORDER BY s, i";
        String plan = physical(off, sql);
        assertThat(plan).contains("RepartitionExec: single").contains("SortExec: [s ASC NULLS LAST, i ASC NULLS LAST]  [single")
                .doesNotContain("OrderedGatherExec");
        assertOrderedAsDuckDb(off, sql);
        assertThatThrownBy(() -> session.sql("SET sluice.sort.range-partitioned = sometimes; " + sql))
                .isInstanceOf(SluiceException.class)
                .hasMessage("sluice.sort.range-partitioned must be true or false, not 'sometimes'");
    }

    /**
     * By default an ORDER BY whose input is estimated below sluice.sort.range-partitioned.min-rows
     * (21,000 rows here) gathers and sorts in one partition: no sampling run, no range stage.
     */
    @Test
    void aSmallOrderBySortsInOnePartitionByDefault() throws Exception {
        String sql = "SELECT s, i FROM t ORDER BY s, i";
        String text = String.join("\n", session.sql("EXPLAIN " + sql).collect().rows().stream()
                .map(r -> String.valueOf(r.get(0))).toList());
        assertThat(text).contains("RepartitionExec: single").contains("SortExec: [s ASC NULLS LAST, i ASC NULLS LAST]  [single")
                .doesNotContain("OrderedGatherExec").doesNotContain("range(");
        List<List<Object>> expected = duck.query(sql);
        assertThat(DuckDbOracle.normalize(session.sql(sql).collect())).isEqualTo(expected);
        // a floor below the estimate range-partitions again
        assertThat(physical("SET sluice.sort.range-partitioned.min-rows = 20000; ", sql)).contains("OrderedGatherExec");
        assertThatThrownBy(() -> session.sql("SET sluice.sort.range-partitioned.min-rows = -1; " + sql))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("sluice.sort.range-partitioned.min-rows must be between 0 and 1000000000000, not -1");
    }

    @Test
    void orderByLimitStaysTopK() throws Exception {
        String sql = "SELECT i, d FROM t ORDER BY d DESC, i LIMIT 9";
        assertThat(physical(sql)).contains("TopK(fetch=9)").doesNotContain("OrderedGatherExec")
                .doesNotContain("RepartitionExec: range");
        assertOrderedAsDuckDb("", sql);
    }

    @Test
    void mergeJoinAggregateOrderByOnTheKeyNeedsOnlyTheJoinExchanges() throws Exception {
        String sql = "SELECT t.k, count(*) AS c, sum(t.x) AS sx FROM t JOIN u ON t.k = u.k GROUP BY t.k ORDER BY t.k";
        String plan = physical(SMJ, sql);
        assertThat(plan).contains("SortMergeJoinExec");
        assertThat(count(plan, "RepartitionExec")).as(plan).isEqualTo(2);
        assertThat(count(plan, "OrderedGatherExec")).as(plan).isEqualTo(1);
        assertThat(count(plan, "SortExec")).as("only the join's two input sorts\n" + plan).isEqualTo(2);
        // the aggregates stream over the merge join's key order instead of hashing
        assertThat(count(plan, "HashAggregateExec: mode=partial, sorted")).as(plan).isEqualTo(1);
        assertThat(count(plan, "HashAggregateExec: mode=final, sorted")).as(plan).isEqualTo(1);
        assertOrderedAsDuckDb(SMJ, sql);
        // the same with the gather-and-sort setting: the ordered gather still replaces gather and sort
        String off = SMJ + "SET sluice.sort.range-partitioned = false; ";
        String offPlan = physical(off, sql);
        assertThat(count(offPlan, "RepartitionExec")).as(offPlan).isEqualTo(2);
        assertThat(offPlan).contains("OrderedGatherExec");
        assertOrderedAsDuckDb(off, sql);
    }

    @Test
    void mergeJoinOnDecimalsOfDifferentScales() throws Exception {
        String sql = "SELECT t.i, u.label FROM t JOIN u ON t.d = u.d4 ORDER BY t.i";
        assertOrderedAsDuckDb(SMJ, sql);
        // the planner casts both keys to decimal(14,4), whichever join it picks
        assertThat(physical(SMJ, sql)).contains("CAST(t.d AS decimal(14,4))");
        assertOrderedAsDuckDb("SET sluice.join.broadcast-threshold = -1; ", sql);
        assertOrderedAsDuckDb("", sql);
    }
}
