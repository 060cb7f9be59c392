package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.file.ColumnStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParquetStatisticsTest {
    @Test
    void aRunTakesTheLeastMinTheGreatestMaxAndTheSummedNulls() {
        List<ColumnStats> merged = ParquetStatistics.merge(List.of(
                List.of(new ColumnStats("a", 5L, 9L, 1), new ColumnStats("s", "m", "q", 0)),
                List.of(new ColumnStats("a", 1L, 7L, 2), new ColumnStats("s", "b", "z", -1))));
        assertThat(merged).containsExactly(new ColumnStats("a", 1L, 9L, 3), new ColumnStats("s", "b", "z", -1));
    }

    /** A row group whose column holds only NULLs has no min; merged, it must not make the run look all NULL. */
    @Test
    void aRowGroupOfOnlyNullsAddsNoRange() {
        List<ColumnStats> merged = ParquetStatistics.merge(List.of(
                List.of(new ColumnStats("c", null, null, 100)),
                List.of(new ColumnStats("c", 3L, 8L, 0)),
                List.of(new ColumnStats("c", null, null, 50))));
        assertThat(merged).containsExactly(new ColumnStats("c", 3L, 8L, 150));
        assertThat(ParquetStatistics.merge(List.of(List.of(new ColumnStats("c", null, null, 4)),
                List.of(new ColumnStats("c", null, null, 6))))).containsExactly(new ColumnStats("c", null, null, 10));
    }

    @Test
    void aColumnUnknownInOneRowGroupOrOfValuesThatDoNotCompareIsLeftOut() {
        List<ColumnStats> merged = ParquetStatistics.merge(List.of(
                List.of(new ColumnStats("a", 1L, 2L, 0), new ColumnStats("b", 1L, 2L, 0)),
                List.of(new ColumnStats("a", 1.5, 2.5, 0))));
        assertThat(merged).isEmpty();
    }
}
