package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A partitioned hash join whose build side is small and selective filters its probe side by the
 * build keys before the shuffle: the plan shows the filter, the probe stage writes only rows that
 * may join, and the answers equal DuckDB's with runtime filters on and off.
 */
class RuntimeFilterTest extends DuckDbComparisonTest {
    /** Partitioned joins only: broadcast joins need no runtime filter. */
    private static final String PARTITIONED = "SET sluice.join.broadcast-threshold = -1;\n";
    private static final String OFF = "SET sluice.join.runtime-filter-threshold = -1;\n";
    private static final String QUERY = "SELECT d.name, count(*) AS n, sum(f.v) AS s FROM fact f JOIN dim d ON f.k = d.k "
            + "WHERE d.name LIKE '%green%' GROUP BY d.name";

    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data,
                new DuckDbComparison.Table("fact", "SELECT i AS id, CASE WHEN i % 97 = 0 THEN NULL ELSE i % 20000 END AS k, "
                        + "i AS v FROM range(0, 60000) r(i)", 3),
                new DuckDbComparison.Table("dim", "SELECT i AS k, CASE WHEN i % 50 = 7 THEN 'green ' || i ELSE 'blue ' || i END "
                        + "AS name, i // 1000 AS grp FROM range(0, 20000) r(i)", 2),
                // one file, keys in order, row groups of about 10,000 rows: each row group's key range is narrow
                new DuckDbComparison.Table("events", "SELECT i AS k, i * 3 AS v FROM range(0, 60000) r(i) ORDER BY i", 1,
                        10_000),
                // keys spread over every row group (NULL every 97th), a dictionary string and a unique one
                new DuckDbComparison.Table("lines", "SELECT i AS id, CASE WHEN i % 97 = 0 THEN NULL ELSE (i * 7) % 20000 END "
                        + "AS k, i % 1000 AS v, 'name ' || (i % 300) AS s, 'row ' || i AS t FROM range(0, 60000) r(i)", 1, 7_000));
    }

    /** The physical plan section of {@code EXPLAIN query}. */
    private static String physicalPlan(String query) {
        String plan = text("EXPLAIN " + query);
        return plan.substring(plan.indexOf("== Physical Plan =="), plan.indexOf("== Stages =="));
    }

    /** The query's rows equal DuckDB's, with runtime filters and without. */
    private static void sameAsDuckDbWithFiltersOnAndOff(String query) throws Exception {
        var expected = both.duck().query(query);
        assertThat(DuckDbOracle.normalize(both.session().sql(query).collect())).as(query).isEqualTo(expected);
        assertThat(DuckDbOracle.normalize(both.session().sql(OFF + query).collect())).as(query).isEqualTo(expected);
    }

    private static String text(String sql) {
        return both.session().sql(sql).collect().rows().stream().map(r -> (String) r.get(0)).collect(Collectors.joining("\n"));
    }

    @Test
    void theProbeSideIsFilteredBelowItsExchange() {
        String plan = text(PARTITIONED + "EXPLAIN " + QUERY);
        // the filter sits under the probe side's repartition, its source under the build side's
        // (below the projection that names the scan's columns: as deep as the keys go)
        assertThat(plan).containsPattern("RepartitionExec: hash\\(\\[f\\.k\\][^\\n]*\\n\\s*ProjectionExec: k AS f\\.k[^\\n]*\\n"
                + "\\s*RuntimeFilterExec: keys=\\[k\\] filter=rf-0\\s");
        assertThat(plan).containsPattern(
                "RepartitionExec: hash\\(\\[d\\.k\\][^\\n]*\\n\\s*RuntimeFilterSourceExec: keys=\\[d\\.k\\] filter=rf-0 bits=");
        // the probe stage waits for the build stage, whose tasks compute the filter
        assertThat(plan).containsPattern("Stage 1 \\(3 tasks, after stages 0\\)\\n[^\\n]*\\n[^\\n]*\\n\\s*RuntimeFilterExec");
        assertThat(text(PARTITIONED + OFF + "EXPLAIN " + QUERY)).doesNotContain("RuntimeFilter");
    }

    @Test
    void theProbeStageRunsWithTheMergedFilterOfTheBuildStage() {
        String analyzed = text(PARTITIONED + "EXPLAIN ANALYZE " + QUERY);
        // 400 of the 20,000 dim keys are green: every build task's partial merged into one filter
        assertThat(analyzed).containsPattern("RuntimeFilterExec: keys=\\[k\\] filter=rf-0 RuntimeFilter\\[400 keys, "
                + "\\d+ bits, \\d+% set, range \\[7, 19957\\]\\]");
    }

    @Test
    void onlyRowsThatMayJoinAreShuffled() throws Exception {
        String analyzed = text(PARTITIONED + "EXPLAIN ANALYZE " + QUERY);
        long passed = ExplainAnalyzeTest.rowsOf(analyzed, "RuntimeFilterExec");
        long matching = (Long) both.duck().query("SELECT count(*) FROM fact f JOIN dim d ON f.k = d.k "
                + "WHERE d.name LIKE '%green%'").get(0).get(0);
        assertThat(passed).isGreaterThanOrEqualTo(matching);
        // 2% of the keys match; false positives are about 1% of the other 58,800 rows
        assertThat(passed).isLessThan(matching + 3000);
    }

    @Test
    void rowGroupsOutsideTheBuildKeysRangeAreNotRead() throws Exception {
        // grp = 3 holds keys 3000..3999: only the row groups of events whose key range meets it may join
        String query = "SELECT count(*) AS n, sum(e.v) AS s FROM events e JOIN dim d ON e.k = d.k WHERE d.grp = 3";
        long rowGroups = (Long) both.duck().query("SELECT count(*) FROM parquet_metadata('" + data.resolve("events")
                + "/*.parquet') WHERE path_in_schema = 'k'").get(0).get(0);
        long meeting = ((Number) both.duck().query("SELECT sum(row_group_num_rows) FROM parquet_metadata('"
                + data.resolve("events") + "/*.parquet') WHERE path_in_schema = 'k' AND CAST(stats_max AS BIGINT) >= 3000 "
                + "AND CAST(stats_min AS BIGINT) <= 3999").get(0).get(0)).longValue();
        assertThat(rowGroups).isGreaterThanOrEqualTo(4);
        assertThat(meeting).isLessThan(60_000 / 2);
        String analyzed = text(PARTITIONED + "EXPLAIN ANALYZE " + query);
        assertThat(analyzed).containsPattern("FileScanExec: events [^\\n]*runtime_pruning=\\[\\(k >= 3000\\), "
                + "\\(k <= 3999\\)\\]");
        assertThat(ExplainAnalyzeTest.rowsReadOf(analyzed, "FileScanExec: events")).isEqualTo(meeting);
        assertThat(DuckDbOracle.normalize(both.session().sql(PARTITIONED + query).collect())).isEqualTo(both.duck().query(query));
        // without the filter every row group is read
        String unfiltered = text(PARTITIONED + OFF + "EXPLAIN ANALYZE " + query);
        assertThat(ExplainAnalyzeTest.rowsOf(unfiltered, "FileScanExec: events")).isEqualTo(60_000);
    }

    @Test
    void aSmallLeftSideFiltersTheAggregateItIsLeftJoinedWithBeforeItAggregates() throws Exception {
        // a decorrelated per-key subquery's shape (TPC-H Q20): only the green keys' groups can match
        String query = "SELECT d.k, d.name, a.s FROM dim d LEFT JOIN (SELECT k, sum(v) AS s FROM fact GROUP BY k) a "
                + "ON d.k = a.k WHERE d.name LIKE '%green%'";
        String plan = text(PARTITIONED + "EXPLAIN " + query);
        assertThat(plan).containsPattern("HashJoinExec: mode=partitioned, type=left, on=\\[\\(d\\.k, a\\.k\\)\\], build=left");
        assertThat(plan).containsPattern("HashAggregateExec: mode=partial, groupBy=\\[k\\][^\\n]*\\n\\s*RuntimeFilterExec: "
                + "keys=\\[k\\] filter=rf-0[^\\n]*\\n\\s*FileScanExec: fact");
        assertThat(plan).containsPattern("RuntimeFilterSourceExec: keys=\\[d\\.k\\] filter=rf-0");
        String analyzed = text(PARTITIONED + "EXPLAIN ANALYZE " + query);
        // 400 green keys of 20,000 hold 2% of fact's 60,000 rows; false positives about 1% of the rest
        long green = (Long) both.duck().query("SELECT count(*) FROM fact WHERE k % 50 = 7").get(0).get(0);
        assertThat(ExplainAnalyzeTest.rowsOf(analyzed, "RuntimeFilterExec")).isBetween(green, green + 3000);
        var expected = DuckDbOracle.sorted(both.duck().query(query));
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(both.session().sql(PARTITIONED + query).collect()))).isEqualTo(expected);
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(both.session().sql(PARTITIONED + OFF + query).collect())))
                .isEqualTo(expected);
    }

    /**
     * TPC-H Q17's shape, written as users write it (a correlated per-key average): the dimension's
     * filter, made for the fact side's join, is used again on the subquery's aggregate, which then
     * aggregates only the rows whose keys may match instead of all of them; the answer is DuckDB's,
     * with the filters and without.
     */
    @Test
    void aFilterTheOuterRowsPassAlsoFiltersTheCorrelatedAggregate() throws Exception {
        String query = "SELECT sum(l.v) AS s, count(*) AS n FROM lines l JOIN dim d ON l.k = d.k "
                + "WHERE d.name LIKE '%green%' AND l.v < (SELECT 0.9 * avg(l2.v) FROM lines l2 WHERE l2.k = d.k)";
        String plan = text("EXPLAIN " + query);
        assertThat(plan).containsPattern("RuntimeFilterSourceExec: keys=\\[[^\\]]*\\] filter=rf-0");
        assertThat(plan).containsPattern("HashAggregateExec: mode=partial, groupBy=\\[k\\][^\\n]*\\n\\s*RuntimeFilterExec: "
                + "keys=\\[k\\] filter=rf-0");
        String physical = plan.substring(plan.indexOf("== Physical Plan =="), plan.indexOf("== Stages =="));
        assertThat(physical.split("RuntimeFilterExec: keys=\\[k\\] filter=rf-0", -1)).as(physical).hasSize(3);
        String analyzed = text("EXPLAIN ANALYZE " + query);
        long matching = (Long) both.duck().query("SELECT count(*) FROM lines l JOIN dim d ON l.k = d.k "
                + "WHERE d.name LIKE '%green%'").get(0).get(0);
        assertThat(ExplainAnalyzeTest.rowsOf(analyzed, "HashAggregateExec: mode=partial, groupBy=[k]")).isLessThan(matching + 3000);
        var expected = DuckDbOracle.sorted(both.duck().query(query));
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(both.session().sql(query).collect()))).isEqualTo(expected);
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(both.session().sql(OFF + query).collect()))).isEqualTo(expected);
    }

    /**
     * A filter is found below another filter's source: the green lines (filtered by dim's keys, rf-0)
     * are the small side of a join on their ids, which makes them a filter source (rf-1); joined on
     * their part key with events above that, they still pass rf-0, so events is filtered by it
     * (TPC-H Q5's customers by the region's nations, Q2's partsupp by the parts). Answers are
     * DuckDB's, with filters and without.
     */
    @Test
    void aFilterBelowAnotherFiltersSourceIsReused() throws Exception {
        String query = "SELECT count(*) AS n, sum(e.v) AS s FROM events e JOIN (SELECT y.k, f.v FROM fact f JOIN "
                + "(SELECT l.id, l.k FROM lines l JOIN dim d ON l.k = d.k WHERE d.name LIKE '%green%') y ON f.id = y.id) z "
                + "ON e.k = z.k";
        String physical = physicalPlan(query);
        assertThat(physical).containsPattern("RuntimeFilterSourceExec: keys=\\[y\\.id\\] filter=rf-1");
        assertThat(physical).containsPattern("RuntimeFilterExec: keys=\\[k\\] filter=rf-0[^\\n]*\\n(\\s*RuntimeFilterExec[^\\n]*\\n)?"
                + "\\s*FileScanExec: events");
        sameAsDuckDbWithFiltersOnAndOff(query);
    }

    /**
     * TPC-H Q9's shape: the dimension's filter on one key of a join on two (part and supplier
     * there) filters the other side too, whose rows failing it match nothing on that key alone:
     * the per-(key, bucket) aggregate over fact aggregates only rows whose key may match. (Here the
     * join also builds a filter of its own on both keys, from a left side whose rows passed the
     * first: that one waits for nothing more.) Answers are DuckDB's, with filters and without.
     */
    @Test
    void aFilterOnOneOfTheJoinKeysFiltersTheOtherSide() throws Exception {
        String query = "SELECT count(*) AS n, sum(f.v) AS s, sum(x.c) AS c FROM (SELECT l.k, l.id % 5 AS j, l.v FROM lines l "
                + "JOIN dim d ON l.k = d.k WHERE d.name LIKE '%green%') f "
                + "JOIN (SELECT k, id % 5 AS j, count(*) AS c FROM fact GROUP BY k, id % 5) x ON f.k = x.k AND f.j = x.j";
        String physical = physicalPlan(query);
        // the join's own filter on both keys (its left side is small) goes there too, above or below
        assertThat(physical).containsPattern("HashAggregateExec: mode=partial, groupBy=\\[k, [^\\n]*\\n(\\s*RuntimeFilterExec[^\\n]*\\n)?"
                + "\\s*RuntimeFilterExec: keys=\\[k\\] filter=rf-0");
        long matching = (Long) both.duck().query("SELECT count(*) FROM fact f JOIN dim d ON f.k = d.k "
                + "WHERE d.name LIKE '%green%'").get(0).get(0);
        String analyzed = text("EXPLAIN ANALYZE " + query);
        assertThat(ExplainAnalyzeTest.rowsOf(analyzed, "HashAggregateExec: mode=partial, groupBy=[k,")).isLessThan(matching + 3000);
        sameAsDuckDbWithFiltersOnAndOff(query);
    }

    /**
     * The reused filter above other join types, NULL keys on both sides: a LEFT and a RIGHT join
     * filter the side they do not preserve, NOT EXISTS its subquery; NOT IN (where a NULL in the
     * subquery empties the answer) gets none. Every answer is DuckDB's, with filters and without.
     */
    @Test
    void aReusedFilterKeepsEveryJoinTypesAnswer() throws Exception {
        String filtered = "SELECT l.k, l.v FROM lines l JOIN dim d ON l.k = d.k WHERE d.name LIKE '%green%'";
        String perKey = "SELECT k, sum(v) AS s, count(*) AS c FROM lines GROUP BY k";
        String left = "SELECT count(*) AS n, sum(x.s) AS s, count(x.k) AS matched FROM (" + filtered + ") f LEFT JOIN ("
                + perKey + ") x ON f.k = x.k";
        String right = "SELECT count(*) AS n, sum(x.s) AS s, count(x.k) AS matched FROM (" + perKey + ") x RIGHT JOIN ("
                + filtered + ") f ON x.k = f.k";
        String notExists = "SELECT count(*) AS n, sum(f.v) AS s FROM (" + filtered + ") f WHERE NOT EXISTS "
                + "(SELECT 1 FROM lines l2 WHERE l2.k = f.k AND l2.v > 900)";
        String notIn = "SELECT count(*) AS n FROM (" + filtered + ") f WHERE f.k NOT IN (SELECT k FROM lines WHERE v > 900)";
        String notInWithoutNulls = "SELECT count(*) AS n FROM (" + filtered + ") f WHERE f.k NOT IN "
                + "(SELECT k FROM lines WHERE v > 900 AND k IS NOT NULL)";
        for (String query : List.of(left, right, notExists, notIn, notInWithoutNulls)) {
            var expected = both.duck().query(query);
            assertThat(DuckDbOracle.normalize(both.session().sql(query).collect())).as(query).isEqualTo(expected);
            assertThat(DuckDbOracle.normalize(both.session().sql(OFF + query).collect())).as(query).isEqualTo(expected);
        }
        for (String query : List.of(left, right)) {
            String plan = text("EXPLAIN " + query);
            String physical = plan.substring(plan.indexOf("== Physical Plan =="), plan.indexOf("== Stages =="));
            assertThat(physical).as(query).containsPattern("HashAggregateExec: mode=partial, groupBy=\\[k\\][^\\n]*\\n\\s*"
                    + "RuntimeFilterExec: keys=\\[k\\] filter=rf-0");
        }
        String plan = text("EXPLAIN " + notIn);
        String physical = plan.substring(plan.indexOf("== Physical Plan =="), plan.indexOf("== Stages =="));
        assertThat(physical.split("filter=rf-0", -1)).as(physical).hasSize(3); // its source and the fact side's filter
    }

    /**
     * A broadcast join with a selective dimension: the broadcast side's keys filter the fact scan,
     * which decodes the key column first and the other columns only for rows whose keys pass; the
     * answer is DuckDB's, with the filter and without.
     */
    @Test
    void aBroadcastDimensionFiltersTheFactScanBeforeItDecodesTheOtherColumns() throws Exception {
        String query = "SELECT d.grp, count(*) AS n, sum(l.v) AS sv, min(l.t) AS mt, max(l.s) AS ms, sum(l.id) AS si "
                + "FROM lines l JOIN dim d ON l.k = d.k WHERE d.name LIKE '%green%' GROUP BY d.grp";
        String plan = text("EXPLAIN " + query);
        assertThat(plan).contains("mode=collect_right").containsPattern("RuntimeFilterExec: keys=\\[k\\] filter=rf-0");
        String analyzed = text("EXPLAIN ANALYZE " + query);
        long matching = (Long) both.duck().query("SELECT count(*) FROM lines l JOIN dim d ON l.k = d.k "
                + "WHERE d.name LIKE '%green%'").get(0).get(0);
        assertThat(ExplainAnalyzeTest.rowsReadOf(analyzed, "FileScanExec: lines")).isEqualTo(60_000);
        assertThat(ExplainAnalyzeTest.rowsOf(analyzed, "FileScanExec: lines")).isBetween(matching, matching + 3000);
        var expected = DuckDbOracle.sorted(both.duck().query(query));
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(both.session().sql(query).collect()))).isEqualTo(expected);
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(both.session().sql(OFF + query).collect()))).isEqualTo(expected);
    }

    /**
     * A selective filter on one column (NULLs among its values) is tested in the scan, which decodes
     * the other columns only for the rows that pass, over several row groups; the answer is DuckDB's.
     */
    @Test
    void aSelectiveFilterIsTestedBeforeTheOtherColumnsAreDecoded() throws Exception {
        String query = "SELECT count(*) AS n, sum(v) AS sv, min(t) AS mt, max(s) AS ms, sum(id) AS si FROM lines "
                + "WHERE k BETWEEN 100 AND 400 OR k IS NULL";
        String analyzed = text("EXPLAIN ANALYZE " + query);
        long passing = (Long) both.duck().query("SELECT count(*) FROM lines WHERE k BETWEEN 100 AND 400 OR k IS NULL")
                .get(0).get(0);
        assertThat(analyzed).contains("FileScanExec: lines").contains(" rows_read=60000 rows_skipped=" + (60_000 - passing));
        assertThat(DuckDbOracle.normalize(both.session().sql(query).collect())).isEqualTo(both.duck().query(query));
    }

    /**
     * A test that reads every column the scan reads (TPC-H Q4's lineitem: a comparison of two of its
     * columns and a runtime filter on the third) still drops rows in the scan, compacting each batch
     * once, instead of leaving both to the operators above.
     */
    @Test
    void aTestReadingEveryScannedColumnStillDropsRowsInTheScan() throws Exception {
        String query = "SELECT count(*) AS n, sum(l.v) AS sv FROM lines l JOIN dim d ON l.k = d.k "
                + "WHERE d.name LIKE '%green%' AND l.v < l.id % 700";
        String analyzed = text("EXPLAIN ANALYZE " + query);
        long passing = (Long) both.duck().query("SELECT count(*) FROM lines l JOIN dim d ON l.k = d.k "
                + "WHERE d.name LIKE '%green%' AND l.v < l.id % 700").get(0).get(0);
        assertThat(analyzed).containsPattern("FileScanExec: lines [^\\n]*columns=\\[id, k, v\\]");
        assertThat(ExplainAnalyzeTest.rowsReadOf(analyzed, "FileScanExec: lines")).isEqualTo(60_000);
        assertThat(ExplainAnalyzeTest.rowsOf(analyzed, "FileScanExec: lines")).isBetween(passing, passing + 3000);
        assertThat(DuckDbOracle.normalize(both.session().sql(query).collect())).isEqualTo(both.duck().query(query));
    }

    @Test
    void answersAgreeWithRuntimeFiltersOnAndOff() throws Exception {
        var expected = DuckDbOracle.sorted(both.duck().query(QUERY));
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(both.session().sql(PARTITIONED + QUERY).collect()))).isEqualTo(expected);
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(both.session().sql(PARTITIONED + OFF + QUERY).collect())))
                .isEqualTo(expected);
        String semi = "SELECT count(*), sum(v) FROM fact WHERE k IN (SELECT k FROM dim WHERE name LIKE '%green%')";
        assertThat(DuckDbOracle.normalize(both.session().sql(PARTITIONED + semi).collect())).isEqualTo(both.duck().query(semi));
    }
}
