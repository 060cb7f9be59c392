package io.sluice.datasource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Table statistics from Parquet footers and from CSV sizes, on files DuckDB writes. */
class TableStatisticsTest {
    @TempDir
    Path dir;
    private SourceTestSupport support;

    @BeforeEach
    void setUp() throws Exception {
        support = new SourceTestSupport();
    }

    @AfterEach
    void tearDown() throws Exception {
        support.close();
    }

    @Test
    void parquetFooterGivesExactRowsNullsAndRangesOverAllRowGroups() throws Exception {
        String file = dir.resolve("t.parquet").toString();
        support.execute("COPY (SELECT i AS id, CASE WHEN i % 10 = 0 THEN NULL ELSE i % 7 END AS small, "
                + "'name' || i AS s, i % 2 = 0 AS b, DATE '2020-01-01' + CAST(i AS INTEGER) AS d "
                + "FROM range(100, 5100) r(i)) TO '" + file + "' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)");
        TableSource table = FileFormats.register("t", FileFormat.PARQUET, file);
        Statistics stats = FileFormats.statistics(table);

        assertThat(stats.rows()).isEqualTo(Estimate.exact(5000));
        ColumnStatistics id = stats.column(0);
        assertThat(id.min()).isEqualTo(100L);
        assertThat(id.max()).isEqualTo(5099L);
        assertThat(id.rangePrecision()).isEqualTo(Estimate.Precision.EXACT);
        assertThat(id.nullCount()).isEqualTo(Estimate.exact(0));
        assertThat(id.distinctCount()).isEqualTo(Estimate.inexact(5000)); // range 5000 wide, 5000 rows
        ColumnStatistics small = stats.column(1);
        assertThat(small.nullCount()).isEqualTo(Estimate.exact(500));
        assertThat(small.distinctCount()).isEqualTo(Estimate.inexact(7)); // range 0..6, capped by nothing
        ColumnStatistics s = stats.column(2);
        assertThat(s.distinctCount().isKnown()).as("no distinct count for strings").isFalse();
        assertThat(s.rangePrecision()).as("string bounds may be truncated").isEqualTo(Estimate.Precision.INEXACT);
        assertThat(s.min()).isEqualTo("name100");
        assertThat(s.averageWidth()).isGreaterThan(4);
        assertThat(stats.column(3).distinctCount()).isEqualTo(Estimate.inexact(2));
        assertThat(stats.column(4).distinctCount()).isEqualTo(Estimate.inexact(5000));
        assertThat(stats.bytes().value()).isPositive();
        // Cached while the file is unchanged.
        assertThat(FileFormats.statistics(table)).isSameAs(stats);
    }

    @Test
    void stringDistinctCountsComeFromDictionaryPageHeaders() throws Exception {
        String file = dir.resolve("d.parquet").toString();
        // Five statuses in every row group; 500 keys of ten rows each in ascending order, so a key is
        // in one row group or two neighbours; unique names, which DuckDB writes without a dictionary.
        // 5,000 rows in row groups of DuckDB's choosing (2,048 rows).
        support.execute("COPY (SELECT 'status' || (i % 5) AS status, 'k' || lpad(CAST(i // 10 AS VARCHAR), 4, '0') "
                + "AS clustered, 'name' || i AS name "
                + "FROM range(0, 5000) r(i) ORDER BY i) TO '" + file + "' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)");
        Statistics stats = FileFormats.statistics(FileFormats.register("d", FileFormat.PARQUET, file));

        assertThat(stats.column(0).distinctCount().value()).as("one small domain in every chunk: the largest dictionary")
                .isCloseTo(5, within(0.5));
        assertThat(stats.column(1).distinctCount().value()).as("chunks with disjoint ranges: the dictionaries' sum "
                + "(a key at a row group boundary counts in both)").isCloseTo(500, within(5.0));
        assertThat(stats.column(2).distinctCount().isKnown()).as("no dictionary, no count").isFalse();
    }

    @Test
    void csvRowsComeFromTheFileSizeAndASampledRowWidth() throws Exception {
        String file = dir.resolve("t.csv").toString();
        support.execute("COPY (SELECT i AS id, 'abcdefghij' AS s FROM range(1000, 11000) r(i)) TO '" + file
                + "' (FORMAT CSV, HEADER)");
        TableSource table = FileFormats.register("t", FileFormat.CSV, file);
        Statistics stats = FileFormats.statistics(table);
        assertThat(stats.rows().precision()).isEqualTo(Estimate.Precision.INEXACT);
        assertThat(stats.rowCount()).isCloseTo(10000, within(100.0));
        assertThat(stats.column(1).averageWidth()).isCloseTo(14, within(0.01));
        assertThat(stats.column(0).distinctCount().isKnown()).isFalse();
    }

    @Test
    void missingFilesGiveUnknownStatisticsNotAnError() {
        TableSource missing = new TableSource("m", FileFormat.PARQUET, dir.resolve("none.parquet").toString(),
                io.sluice.common.types.Schema.of(new io.sluice.common.types.Field("x", io.sluice.common.types.DataType.INT64)));
        Statistics stats = FileFormats.statistics(missing);
        assertThat(stats.rows()).isEqualTo(Estimate.inexact(Statistics.DEFAULT_ROWS));
        assertThat(stats.column(0).distinctCount().isKnown()).isFalse();
    }
}
