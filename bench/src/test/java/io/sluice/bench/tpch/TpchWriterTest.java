package io.sluice.bench.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.tpch.TpchData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpchWriterTest {
    @TempDir
    Path root;

    @Test
    void duckDbWritesEveryTableAgainAsOneFileWithTheSameRows() throws Exception {
        TpchData generated = TpchData.generate(root, 0.01);
        TpchData written = TpchWriter.DUCKDB.prepare(generated, 2);

        assertThat(written.directory().getFileName().toString()).isEqualTo("sf0.01-duckdb");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            for (var table : written.tables().entrySet()) {
                try (var files = Files.list(table.getValue())) {
                    assertThat(files.map(f -> f.getFileName().toString()).toList()).as(table.getKey()).containsExactly("part-00.parquet");
                }
                String file = table.getValue().resolve("part-00.parquet").toString();
                try (ResultSet rs = s.executeQuery("SELECT created_by FROM parquet_file_metadata('" + file + "')")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).as(table.getKey()).containsIgnoringCase("duckdb");
                }
                try (ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM read_parquet('" + file + "')), "
                        + "(SELECT count(*) FROM read_parquet('" + generated.tables().get(table.getKey()) + "/*.parquet'))")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).as(table.getKey()).isPositive().isEqualTo(rs.getLong(2));
                }
            }
        }
    }

    @Test
    void parsesTheWriterOption() {
        assertThat(TpchOptions.parse(new String[] {"--writer", "Spark"}).writer).isEqualTo(TpchWriter.SPARK);
        assertThat(TpchOptions.parse(new String[0]).writer).isEqualTo(TpchWriter.SLUICE);
        assertThatThrownBy(() -> TpchOptions.parse(new String[] {"--writer", "trino"}))
                .hasMessage("--writer takes sluice, duckdb or spark, not 'trino'");
    }
}
