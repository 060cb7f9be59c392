package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * EXPLAIN ANALYZE on an embedded cluster runs the query and prints the staged plan with each
 * operator's rows, batches and time over its tasks; the row counts agree with DuckDB's on the data.
 */
class ExplainAnalyzeTest extends DuckDbComparisonTest {
    private static final Pattern ROWS = Pattern.compile("\\[est_rows=(?:\\d+|\\?) rows=(\\d+) batches=(\\d+) time=[0-9.]+ms[^|]* \\| per task \\((\\d+)\\): "
            + "rows (\\d+)/(\\d+)/(\\d+), time [0-9.]+ms/[0-9.]+ms/[0-9.]+ms]");

    private static final Pattern ROWS_READ = Pattern.compile(" rows_read=(\\d+) rows_skipped=\\d+");

    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("t",
                "SELECT i AS id, CASE WHEN i % 5 = 2 THEN NULL ELSE i % 7 END AS k, i * 10 AS v FROM range(0, 3000) r(i)", 3),
                new DuckDbComparison.Table("p", "SELECT i AS pk, i % 40 AS dk, i AS pv FROM range(0, 8000) r(i)", 8),
                new DuckDbComparison.Table("d", "SELECT i AS dk, 'n' || i AS dname, CASE WHEN i = 39 THEN 'x' "
                        + "ELSE CAST(i AS VARCHAR) END AS code FROM range(0, 40) r(i)", 1),
                // three row groups of over a megabyte in one file: one scan partition, a byte range of the file
                new DuckDbComparison.Table("ranged", "SELECT i AS id, i * 7 AS a, -i AS b, 'x' || (i % 1000) AS s"
                        + " FROM range(0, 150000) r(i)", 1, 50_000));
    }

    private static String explainAnalyze(String sql) {
        return both.session().sql("EXPLAIN ANALYZE " + sql).collect().rows().stream().map(r -> (String) r.get(0))
                .collect(Collectors.joining("\n"));
    }

    /** The summed rows of the first operator line containing {@code operator}. */
    static long rowsOf(String text, String operator) {
        for (String line : text.split("\n")) {
            if (line.contains(operator)) {
                Matcher m = ROWS.matcher(line);
                assertThat(m.find()).as(line).isTrue();
                return Long.parseLong(m.group(1));
            }
        }
        throw new AssertionError(operator + " not in\n" + text);
    }

    /**
     * The rows the first operator line containing {@code operator} read: a scan that dropped rows
     * before decoding them whole prints {@code rows_read=}; else its rows.
     */
    static long rowsReadOf(String text, String operator) {
        for (String line : text.split("\n")) {
            if (line.contains(operator)) {
                Matcher m = ROWS_READ.matcher(line);
                return m.find() ? Long.parseLong(m.group(1)) : rowsOf(line, operator);
            }
        }
        throw new AssertionError(operator + " not in\n" + text);
    }

    /**
     * A scan partition of several row groups (a byte range, statistics merged: id 0 to 149,999)
     * reads only the row groups whose own statistics may hold a passing row: those the pushed filter
     * rules out, and those a runtime filter's key range rules out, are not read.
     */
    @Test
    void aRangeOfRowGroupsReadsOnlyThoseTheirStatisticsAdmit() throws Exception {
        String pushed = "SELECT count(*), sum(a) FROM ranged WHERE id >= 120000";
        both.assertSameRows(pushed);
        String text = explainAnalyze(pushed);
        assertThat(text).contains("FileScanExec: ranged (parquet, 1 partitions)");
        assertThat(rowGroupRowsOfRanged("stats_max >= 120000")).as("the last row group's rows").isLessThan(150_000);
        assertThat(rowsReadOf(text, "FileScanExec: ranged")).isEqualTo(rowGroupRowsOfRanged("stats_max >= 120000"));
        assertThat(rowsOf(text, "FileScanExec: ranged")).isEqualTo(30_000);

        // the build side's keys are 3, 43, ..., 7963: the runtime filter's range admits the first row group only
        String joined = "SELECT count(*), sum(a) FROM ranged JOIN p ON id = pk WHERE dk = 3";
        both.assertSameRows(joined);
        String runtime = explainAnalyze(joined);
        assertThat(runtime).containsPattern("FileScanExec: ranged [^\\n]*runtime_pruning=");
        assertThat(rowsReadOf(runtime, "FileScanExec: ranged"))
                .isEqualTo(rowGroupRowsOfRanged("stats_min <= 7963 AND stats_max >= 3"));
        assertThat(rowsOf(runtime, "FileScanExec: ranged")).isEqualTo(200);
    }

    /** The rows of table {@code ranged}'s row groups whose {@code id} statistics meet {@code condition}, as DuckDB reads its footer. */
    private static long rowGroupRowsOfRanged(String condition) throws Exception {
        String file = data.resolve("ranged").resolve("part0.parquet").toString();
        return ((Number) both.duck().query("SELECT sum(row_group_num_rows) FROM (SELECT row_group_num_rows,"
                + " TRY_CAST(stats_min AS BIGINT) AS stats_min, TRY_CAST(stats_max AS BIGINT) AS stats_max FROM parquet_metadata('"
                + file + "') WHERE path_in_schema = 'id') WHERE " + condition).get(0).get(0)).longValue();
    }

    @Test
    void countsEachOperatorsRowsOverItsTasks() throws Exception {
        String sql = "SELECT k, count(*) AS n, sum(v) AS s FROM t WHERE v > 100 GROUP BY k ORDER BY k";
        String text = explainAnalyze(sql);
        long expectedRows = (Long) both.duck().query("SELECT count(*) FROM (" + sql + ")").get(0).get(0);
        long filtered = (Long) both.duck().query("SELECT count(*) FROM t WHERE v > 100").get(0).get(0);
        assertThat(text).startsWith("Query: " + expectedRows + " rows in ");
        assertThat(text).contains("Stage 0 (3 tasks)").contains(", result)");
        // the scan tests the pushed filter's column first and decodes the other only for the rows that pass
        assertThat(rowsReadOf(text, "FileScanExec")).isEqualTo(3000);
        assertThat(rowsOf(text, "FileScanExec")).isEqualTo(filtered);
        assertThat(text).containsPattern("FileScanExec[^\\n]* rows_read=3000 rows_skipped=" + (3000 - filtered) + " ");
        assertThat(rowsOf(text, "FilterExec")).isEqualTo(filtered);
        assertThat(rowsOf(text, "mode=final")).isEqualTo(expectedRows);
        // every measured line carries the per-task spread, and a scan over 3 files has 3 tasks
        List<String> measured = text.lines().filter(l -> l.contains(" rows=")).toList();
        assertThat(measured).allSatisfy(l -> assertThat(ROWS.matcher(l).find()).as(l).isTrue());
        String scan = measured.stream().filter(l -> l.contains("FileScanExec")).findFirst().orElseThrow();
        Matcher m = ROWS.matcher(scan);
        assertThat(m.find()).isTrue();
        assertThat(m.group(3)).isEqualTo("3");
        assertThat(Long.parseLong(m.group(4)) + Long.parseLong(m.group(6))).isLessThanOrEqualTo(3000);
    }

    /**
     * EXPLAIN prints every physical operator's estimated rows, those the planner took from the logical
     * plan and those the physical optimizer inserted alike; EXPLAIN ANALYZE prints them next to the
     * rows counted: a scan's estimate is the footers' exact count.
     */
    @Test
    void printsEstimatedRowsPerOperator() throws Exception {
        String sql = "SELECT a.id, b.v FROM t a JOIN t b ON a.id = b.id WHERE a.k = 3";
        String explain = both.session().sql("EXPLAIN " + sql).collect().rows().stream().map(r -> (String) r.get(0))
                .collect(Collectors.joining("\n"));
        String physical = explain.substring(explain.indexOf("== Physical Plan =="), explain.indexOf("== Stages =="));
        List<String> operators = physical.lines().filter(l -> l.contains("Exec")).toList();
        assertThat(operators).isNotEmpty().allSatisfy(l -> assertThat(l).containsPattern(", est_rows=\\d+]$"));
        String text = explainAnalyze(sql);
        List<String> measured = text.lines().filter(l -> l.contains(" rows=")).toList();
        assertThat(measured).isNotEmpty().allSatisfy(l -> assertThat(l).containsPattern("\\[est_rows=\\d+ rows="));
        String scan = measured.stream().filter(l -> l.contains("FileScanExec")).findFirst().orElseThrow();
        // the scan reads every row (its estimate) and decodes the join's other column only of those with k = 3
        assertThat(scan).contains("[est_rows=3000 rows=" + both.duck().query("SELECT count(*) FROM t WHERE k = 3").get(0).get(0) + " ");
        assertThat(rowsReadOf(scan, "FileScanExec")).isEqualTo(3000);
    }

    /**
     * A broadcast join probed by eight tasks on two workers builds its table once per worker: the
     * tasks of the stage on a worker share it ({@code SharedBuildCache}); once the job ends the
     * workers hold nothing for it.
     */
    @Test
    void aBroadcastJoinIsBuiltOncePerWorker() throws Exception {
        String sql = "SELECT d.dname, count(*) AS n, sum(p.pv) AS s FROM p JOIN d ON p.dk = d.dk WHERE d.dk % 3 = 0 "
                + "GROUP BY d.dname";
        both.assertSameRows(sql);
        String text = explainAnalyze(sql);
        String join = text.lines().filter(l -> l.contains("HashJoinExec: mode=collect")).findFirst()
                .orElseThrow(() -> new AssertionError("no broadcast join in\n" + text));
        Matcher m = Pattern.compile(" builds=(\\d+) \\| per task \\((\\d+)\\)").matcher(join);
        assertThat(m.find()).as(join).isTrue();
        assertThat(Integer.parseInt(m.group(2))).as("tasks probing the table").isEqualTo(8);
        assertThat(Integer.parseInt(m.group(1))).as("tables built, at most one per worker").isBetween(1, 2);
        assertWorkersHoldNoTables();
    }

    /**
     * The broadcast side fails in the build (a key that is no number): the task building the shared
     * table fails, the tasks waiting for it build again and fail the same way, none hangs, and
     * nothing is left reserved; the next query is answered.
     */
    @Test
    void aBuildThatFailsFailsItsJobAndLeavesNothingBehind() throws Exception {
        assertThatThrownBy(() -> both.session().sql("SELECT count(*) AS n FROM p JOIN d ON p.pk = CAST(d.code AS INT)")
                .collect()).isInstanceOf(SluiceException.class).hasMessageContaining("cannot cast 'x'");
        assertWorkersHoldNoTables();
        ClusterTesting.awaitNoLeakedBuffers(both.session());
        both.assertSameRows("SELECT count(*) AS n FROM p JOIN d ON p.pk = CAST(d.code AS INT) WHERE d.code <> 'x'");
    }

    private static void assertWorkersHoldNoTables() throws InterruptedException {
        LocalCluster cluster = both.session().localCluster();
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline && (!ClusterTesting.memoryReleased(cluster)
                || cluster.workers().stream().anyMatch(w -> w.sharedBuilds().size() > 0))) {
            Thread.sleep(20);
        }
        for (io.sluice.worker.Worker w : cluster.workers()) {
            assertThat(w.sharedBuilds().size()).as("tables kept on " + w.workerId() + " after the job").isZero();
        }
        ClusterTesting.assertMemoryReleased(cluster);
    }

    @Test
    void aJoinShowsBothInputs() {
        String text = explainAnalyze("SELECT a.id, b.v FROM t a JOIN t b ON a.id = b.id WHERE a.k = 3");
        assertThat(text.lines().filter(l -> l.contains("FileScanExec")).count()).isEqualTo(2);
        assertThat(text).contains("JoinExec");
        assertThat(text).doesNotContain("[no task reported]");
    }
}
