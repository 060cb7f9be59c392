package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ANALYZE TABLE … COMPUTE STATISTICS FOR COLUMNS} replaces what the Parquet footers suggest
 * with exact counts from the cluster: a sparse key, whose footer range suggests 30,000 distinct
 * values, has 300, and the estimate of a GROUP BY on it says so afterwards.
 */
class AnalyzeTableTest extends DuckDbComparisonTest {
    private static final String GROUP_BY = "SELECT k, count(*) AS n FROM sparse GROUP BY k";

    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("sparse",
                "SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 300) * 1000 END AS k FROM range(0, 30000) r(i)", 2));
    }

    private static String text(String sql) {
        return both.session().sql(sql).collect().rows().stream().map(r -> (String) r.get(0)).collect(Collectors.joining("\n"));
    }

    private static String aggregateLine(String explain) {
        return explain.lines().filter(l -> l.contains("Aggregate: groupBy=")).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void exactDistinctCountsReplaceTheFootersEstimate() throws Exception {
        assertThat(aggregateLine(text("EXPLAIN " + GROUP_BY))).doesNotContain("[rows=300]");
        assertThat(text("ANALYZE TABLE sparse COMPUTE STATISTICS")).isEqualTo("analyzed table sparse: 30000 rows");
        assertThat(text("ANALYZE TABLE sparse COMPUTE STATISTICS FOR COLUMNS K"))
                .isEqualTo("analyzed table sparse: 30000 rows, columns k");
        long distinct = (Long) both.duck().query("SELECT count(DISTINCT k) FROM sparse").get(0).get(0);
        assertThat(distinct).isEqualTo(300);
        // 300 keys and the NULL group
        assertThat(aggregateLine(text("EXPLAIN " + GROUP_BY))).containsPattern("\\[rows=~?30[01]\\]");
        both.assertSameRows(GROUP_BY);
    }

    @Test
    void unknownTablesAndColumnsAreNamed() {
        assertThatThrownBy(() -> both.session().sql("ANALYZE TABLE sparse COMPUTE STATISTICS FOR COLUMNS nope"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("unknown column 'nope'");
        assertThatThrownBy(() -> both.session().sql("ANALYZE TABLE nothing COMPUTE STATISTICS"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("nothing");
        assertThatThrownBy(() -> both.session().sql("ANALYZE TABLE sparse"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("expected ANALYZE TABLE <name> COMPUTE STATISTICS");
    }
}
