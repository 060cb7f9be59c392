package io.sluice.api;

import static io.sluice.api.Functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partitioned writes on the embedded cluster: {@code partitionBy}, {@code PARTITIONED BY} in CTAS and
 * INSERT into a partitioned table write Hive {@code key=value} directories (escaped, NULL as the
 * default partition) that DuckDB reads back as the source; INSERT OVERWRITE replaces only the
 * partitions it writes; bad partition columns and failed jobs write nothing.
 */
class PartitionedWriteTest {
    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static Session session;
    private static Path source;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(3));
        source = data.resolve("src");
        Files.createDirectories(source);
        for (int f = 0; f < 3; f++) {
            duck.execute("COPY (SELECT range AS id, CAST(range % 5 AS INTEGER) AS k,"
                    + " CASE WHEN range % 11 = 0 THEN NULL WHEN range % 7 = 0 THEN 'a/b=c' ELSE 'r' || (range % 3) END AS region,"
                    + " DATE '2024-03-01' + CAST(range % 4 AS INTEGER) AS d, CAST(range AS DOUBLE) / 8 AS x"
                    + " FROM range(" + f * 2000 + ", " + (f + 1) * 2000 + ")) TO '" + source.resolve("part-" + f + ".parquet")
                    + "' (FORMAT parquet)");
        }
        session.sql("CREATE EXTERNAL TABLE src STORED AS PARQUET LOCATION '" + source + "'");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (session != null) {
                ClusterTesting.assertNoLeakedBuffers(session);
            }
        } finally {
            ClusterTesting.closeAll(session, duck);
        }
    }

    private static String hive(Path dir) {
        return "read_parquet('" + dir + "/**/*.parquet', hive_partitioning = true)";
    }

    private static List<List<Object>> rows(String sql) {
        return DuckDbOracle.normalize(session.sql(sql).collect());
    }

    private static List<String> tree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString())
                    .filter(p -> !p.endsWith(".crc")).sorted().toList();
        }
    }

    @Test
    void partitionByWritesEscapedDirectoriesThatDuckDbReadsAsTheSource() throws Exception {
        Path out = data.resolve("by-region");
        long written = session.read().parquet(source.toString()).write().partitionBy("region").parquet(out.toString());
        assertThat(written).isEqualTo(6000);
        try (Stream<Path> dirs = Files.list(out)) {
            assertThat(dirs.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList())
                    .containsExactly("_SUCCESS", "region=__HIVE_DEFAULT_PARTITION__", "region=a%2Fb%3Dc", "region=r0",
                            "region=r1", "region=r2");
        }
        String expected = "SELECT region, count(*), sum(id), sum(x), min(d), max(k) FROM %s GROUP BY region";
        assertThat(DuckDbOracle.sorted(duck.query(String.format(expected, hive(out)))))
                .isEqualTo(DuckDbOracle.sorted(duck.query(String.format(expected, "read_parquet('" + source + "/*.parquet')"))));
        DataFrame back = session.read().parquet(out.toString());
        assertThat(back.schema().names()).containsExactly("id", "k", "d", "x", "region");
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(back.groupBy("region").agg(Functions.countStar()).collect())))
                .isEqualTo(DuckDbOracle.sorted(rows("SELECT region, count(*) FROM src GROUP BY region")));
    }

    @Test
    void createTableAsPartitionedAndInsertOverwriteReplacesOnlyThePartitionsWritten() throws Exception {
        Path out = data.resolve("ctas");
        session.sql("CREATE TABLE p STORED AS PARQUET PARTITIONED BY (d, k) LOCATION '" + out
                + "' AS SELECT id, k, d, x FROM src WHERE id < 3000");
        assertThat(rows("DESCRIBE p")).extracting(r -> r.get(0)).containsExactly("id", "x", "d", "k");
        assertThat(Files.isDirectory(out.resolve("d=2024-03-02/k=3"))).isTrue();
        String all = "SELECT d, k, count(*), sum(id), sum(x) FROM %s GROUP BY d, k";
        assertThat(DuckDbOracle.sorted(rows(String.format(all, "p"))))
                .isEqualTo(DuckDbOracle.sorted(rows(String.format(all, "src WHERE id < 3000"))));
        assertThat(DuckDbOracle.sorted(duck.query(String.format(all, hive(out)))))
                .isEqualTo(DuckDbOracle.sorted(rows(String.format(all, "p"))));

        session.sql("INSERT INTO p SELECT id, x, d, k FROM src WHERE id >= 3000 AND id < 4000");
        assertThat(rows("SELECT count(*) FROM p")).containsExactly(List.of(4000L));

        List<String> untouched = tree(out).stream().filter(f -> !f.startsWith("d=2024-03-01/k=1/")).toList();
        session.sql("INSERT OVERWRITE p SELECT -id, x, d, k FROM src WHERE d = DATE '2024-03-01' AND k = 1 AND id < 100");
        assertThat(tree(out)).containsAll(untouched);
        assertThat(rows("SELECT count(*), max(id) FROM p WHERE d = DATE '2024-03-01' AND k = 1"))
                .isEqualTo(rows("SELECT count(*), max(-id) FROM src WHERE d = DATE '2024-03-01' AND k = 1 AND id < 100"));
        assertThat(rows("SELECT count(*) FROM p WHERE NOT (d = DATE '2024-03-01' AND k = 1)"))
                .isEqualTo(rows("SELECT count(*) FROM src WHERE id < 4000 AND NOT (d = DATE '2024-03-01' AND k = 1)"));
    }

    @Test
    void badPartitionColumnsAndFailedJobsWriteNothing() throws Exception {
        Path out = data.resolve("never");
        DataFrame src = session.read().parquet(source.toString());
        assertThatThrownBy(() -> src.write().partitionBy("nope").parquet(out.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> src.write().partitionBy("x").parquet(out.toString()))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("cannot partition by column 'x' of type DOUBLE");
        assertThatThrownBy(() -> src.select("k").write().partitionBy("k").parquet(out.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("cannot partition by every column [k]");
        assertThatThrownBy(() -> session.sql("CREATE TABLE q STORED AS PARQUET PARTITIONED BY (missing) LOCATION '" + out
                + "' AS SELECT id, k FROM src")).isInstanceOf(SluiceException.class).hasMessageContaining("missing");
        // a job whose last rows fail: nothing of it is visible
        assertThatThrownBy(() -> session.sql("SELECT id, k, CAST(CASE WHEN id = 5999 THEN 'oops' ELSE '1' END AS INT) AS v"
                + " FROM src").write().partitionBy("k").parquet(out.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("oops");
        assertThat(Files.exists(out)).isFalse();
        assertThat(rows("SELECT count(*) FROM src WHERE k = 2")).containsExactly(List.of(1200L));
    }

    @Test
    void appendAddsFilesNextToTheExistingPartitions() throws Exception {
        Path out = data.resolve("append");
        DataFrame src = session.read().parquet(source.toString());
        src.filter(col("id").lt(100L)).write().partitionBy("k").parquet(out.toString());
        src.filter(col("id").lt(100L)).write().mode("append").partitionBy("k").parquet(out.toString());
        assertThat(DuckDbOracle.normalize(session.read().parquet(out.toString()).filter(col("k").eq(2)).collect()))
                .hasSize(40);
    }
}
