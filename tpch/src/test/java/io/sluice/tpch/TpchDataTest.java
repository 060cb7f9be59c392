package io.sluice.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpchDataTest {
    @TempDir
    Path root;

    /** Row counts of dbgen at scale factor 0.01, as published with the generator. */
    private static final Map<String, Long> ROWS_AT_SF_001 = Map.of(
            "region", 5L, "nation", 25L, "supplier", 100L, "customer", 1_500L, "part", 2_000L,
            "partsupp", 8_000L, "orders", 15_000L, "lineitem", 60_175L);

    @Test
    void generatesEveryTableWithSpecificationTypesReadableByDuckDb() throws Exception {
        TpchData data = TpchData.generate(root, 0.01);
        assertThat(data.tables().keySet()).containsExactlyInAnyOrderElementsOf(ROWS_AT_SF_001.keySet());
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            for (var table : data.tables().entrySet()) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM read_parquet('" + table.getValue() + "/*.parquet')")) {
                    rs.next();
                    assertThat(rs.getLong(1)).as(table.getKey()).isEqualTo(ROWS_AT_SF_001.get(table.getKey()));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('"
                    + data.tables().get("lineitem") + "/*.parquet')) WHERE column_name IN "
                    + "('l_orderkey', 'l_linenumber', 'l_extendedprice', 'l_shipdate', 'l_comment') ORDER BY column_name")) {
                StringBuilder types = new StringBuilder();
                while (rs.next()) {
                    types.append(rs.getString(1)).append(' ').append(rs.getString(2)).append('\n');
                }
                assertThat(types.toString()).isEqualTo("""
                        l_comment VARCHAR
                        l_extendedprice DECIMAL(15,2)
                        l_linenumber INTEGER
                        l_orderkey BIGINT
                        l_shipdate DATE
                        """);
            }
            // dbgen's first order line ships on 1996-03-13 for 17 parts, at every scale
            try (ResultSet rs = s.executeQuery("SELECT l_quantity, l_shipdate FROM read_parquet('"
                    + data.tables().get("lineitem") + "/*.parquet') WHERE l_orderkey = 1 AND l_linenumber = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("17");
                assertThat(rs.getString(2)).isEqualTo("1996-03-13");
            }
            // money survives as exact cents: every line's price is its quantity times its part's retail price
            try (ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE l_extendedprice <> l_quantity * p_retailprice), "
                    + "count(*) FROM read_parquet('" + data.tables().get("lineitem") + "/*.parquet') "
                    + "JOIN read_parquet('" + data.tables().get("part") + "/*.parquet') ON l_partkey = p_partkey")) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
                assertThat(rs.getLong(2)).isEqualTo(60_175L);
            }
        }
    }

    @Test
    void reusesCompleteDataAndRedoesIncompleteData() throws Exception {
        TpchData first = TpchData.generate(root, 0.001);
        Path nation = first.tables().get("nation").resolve("part-01.parquet");
        var written = Files.getLastModifiedTime(nation);
        Thread.sleep(20);
        TpchData.generate(root, 0.001);
        assertThat(Files.getLastModifiedTime(nation)).isEqualTo(written);

        Files.delete(first.directory().resolve("_SUCCESS"));
        Files.delete(nation);
        TpchData again = TpchData.generate(root, 0.001);
        assertThat(again.tables().get("nation").resolve("part-01.parquet")).exists();
    }

    @Test
    void everyQueryHasItsSpecificationText() {
        for (int q : TpchQueries.all()) {
            assertThat(TpchQueries.text(q)).as("q" + q).startsWith("-- TPC-H Q" + q + ":").containsIgnoringCase("select");
        }
        assertThat(TpchQueries.text(1)).contains("date '1998-12-01' - interval '90' day (3)");
        assertThat(TpchQueries.forPeer(TpchQueries.text(1))).contains("date '1998-12-01' - interval '90' day\n")
                .doesNotContain("(3)");
        assertThat(TpchQueries.forPeer(TpchQueries.text(4))).isEqualTo(TpchQueries.text(4));
        assertThatThrownBy(() -> TpchQueries.text(23)).hasMessageContaining("1 to 22");
    }

    @Test
    void rewritesOnceWithAnotherWriterAndRefusesAnIncompleteRewrite() throws Exception {
        TpchData data = TpchData.generate(root, 0.01);
        int[] writes = {0};
        TpchData.Writer copy = (source, target) -> {
            writes[0]++;
            for (var table : source.tables().entrySet()) {
                Path directory = Files.createDirectories(target.resolve(table.getKey()));
                try (var files = Files.list(table.getValue())) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".parquet")).toList()) {
                        Files.copy(file, directory.resolve(file.getFileName()));
                    }
                }
            }
        };

        TpchData rewritten = data.rewrittenBy("copier", copy);
        assertThat(rewritten.directory()).isEqualTo(data.directory().resolveSibling("sf0.01-copier"));
        assertThat(rewritten.tables().get("nation")).isDirectory();
        assertThat(data.rewrittenBy("copier", copy).directory()).isEqualTo(rewritten.directory());
        assertThat(writes[0]).as("a complete rewrite is reused").isEqualTo(1);

        assertThatThrownBy(() -> data.rewrittenBy("lazy", (source, target) -> Files.createDirectories(target.resolve("nation"))))
                .hasMessageContaining("the lazy writer wrote no directory for table customer");
        assertThat(data.directory().resolveSibling("sf0.01-lazy").resolve("_SUCCESS")).doesNotExist();
        assertThatThrownBy(() -> data.rewrittenBy("../x", copy)).hasMessageContaining("not '../x'");
    }
}
