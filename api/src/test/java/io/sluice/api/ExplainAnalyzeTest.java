package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

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

    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("t",
                "SELECT i AS id, CASE WHEN i % 5 = 2 THEN NULL ELSE i % 7 END AS k, i * 10 AS v FROM range(0, 3000) r(i)", 3));
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

    @Test
    void countsEachOperatorsRowsOverItsTasks() throws Exception {
        String sql = "SELECT k, count(*) AS n, sum(v) AS s FROM t WHERE v > 100 GROUP BY k ORDER BY k";
        String text = explainAnalyze(sql);
        long expectedRows = (Long) both.duck().query("SELECT count(*) FROM (" + sql + ")").get(0).get(0);
        long filtered = (Long) both.duck().query("SELECT count(*) FROM t WHERE v > 100").get(0).get(0);
        assertThat(text).startsWith("Query: " + expectedRows + " rows in ");
        assertThat(text).contains("Stage 0 (3 tasks)").contains(", result)");
        assertThat(rowsOf(text, "FileScanExec")).isEqualTo(3000);
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
    void printsEstimatedRowsPerOperator() {
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
        assertThat(scan).contains("[est_rows=3000 rows=3000 ");
    }

    @Test
    void aJoinShowsBothInputs() {
        String text = explainAnalyze("SELECT a.id, b.v FROM t a JOIN t b ON a.id = b.id WHERE a.k = 3");
        assertThat(text.lines().filter(l -> l.contains("FileScanExec")).count()).isEqualTo(2);
        assertThat(text).contains("JoinExec");
        assertThat(text).doesNotContain("[no task reported]");
    }
}
