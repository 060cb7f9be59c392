package io.sluice.api;

import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.countStar;
import static io.sluice.api.Functions.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.datasource.FileAccessPolicy;
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
 * Writes on the embedded cluster: what CREATE TABLE ... AS and {@code df.write()} put in files reads
 * back in DuckDB exactly as the source does; save modes; a job failing in a later partition leaves
 * the target as it was (no files, no {@code _temporary}); a task attempt that failed after writing
 * its file is retried and only the retry's file is committed.
 */
class WriteTest {
    private static final int FILES = 4;
    private static final int ROWS_PER_FILE = 3000;

    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static Session session;
    private static Path source;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        // FaultyFileSystem's scheme, allowed for this cluster only
        System.setProperty(FileAccessPolicy.SCHEMES_PROPERTY, FaultyFileSystem.SCHEME);
        try {
            session = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2).withShufflePartitions(3)
                    .withAllowedRoots(List.of("/", FaultyFileSystem.SCHEME + ":///"))));
        } finally {
            System.clearProperty(FileAccessPolicy.SCHEMES_PROPERTY);
        }
        source = data.resolve("src");
        Files.createDirectories(source);
        for (int f = 0; f < FILES; f++) {
            // every type the Parquet writer maps, NULLs in each column but id, duplicates in s, m, d, i
            duck.execute("COPY (SELECT range AS id,"
                    + " CASE WHEN range % 13 = 0 THEN NULL ELSE 'name' || (range % 97) END AS s,"
                    + " CASE WHEN range % 17 = 0 THEN NULL ELSE CAST(range * 1.25 - 5000 AS DECIMAL(12,2)) END AS m,"
                    + " CASE WHEN range % 19 = 0 THEN NULL ELSE DATE '2020-01-01' + CAST(range % 1000 AS INTEGER) END AS d,"
                    + " CASE WHEN range % 23 = 0 THEN NULL ELSE CAST(range AS DOUBLE) / 7 END AS x,"
                    + " CASE WHEN range % 11 = 0 THEN NULL ELSE CAST(range % 1000 AS INTEGER) END AS i"
                    + " FROM range(" + f * ROWS_PER_FILE + ", " + (f + 1) * ROWS_PER_FILE + ")) TO '"
                    + source.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
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

    @Test
    void createTableAsParquetReadsBackInDuckDbAsTheSource() throws Exception {
        Path out = data.resolve("ctas");
        String query = "SELECT id, s, m, d, x, i FROM src WHERE id % 5 <> 0";
        session.sql("CREATE TABLE copy STORED AS PARQUET LOCATION '" + out + "' AS " + query);

        List<List<Object>> expected = duck.query(query.replace("src", "read_parquet('" + source + "/*.parquet')")
                + " ORDER BY id");
        assertThat(expected).hasSize(FILES * ROWS_PER_FILE * 4 / 5);
        assertThat(duck.query("SELECT * FROM read_parquet('" + out + "/*.parquet') ORDER BY id")).isEqualTo(expected);
        assertThat(DuckDbOracle.normalize(session.sql("SELECT * FROM copy ORDER BY id").collect())).isEqualTo(expected);
        // DuckDB sees the types the source has
        assertThat(duck.query("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('" + out
                + "/*.parquet'))")).isEqualTo(duck.query("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "
                + "read_parquet('" + source + "/*.parquet'))"));
        assertThat(Files.exists(out.resolve("_SUCCESS"))).isTrue();
        assertThat(Files.exists(out.resolve("_temporary"))).isFalse();
    }

    @Test
    void createTableAsCsvReadsBackInDuckDb() throws Exception {
        Path out = data.resolve("ctas_csv");
        session.sql("CREATE TABLE copy_csv STORED AS CSV LOCATION '" + out + "' AS SELECT id, s, m, d, i FROM src");
        String summary = "SELECT count(*), count(s), count(DISTINCT s), sum(m), min(d), max(d), sum(i) FROM ";
        List<List<Object>> expected = duck.query(summary + "read_parquet('" + source + "/*.parquet')");
        assertThat(duck.query(summary + "read_csv('" + out + "/*.csv', header = true, types = {'m': 'DECIMAL(12,2)'})"))
                .isEqualTo(expected);
        assertThat(DuckDbOracle.normalize(session.sql(summary + "copy_csv").collect())).isEqualTo(expected);
    }

    @Test
    void dataFrameWriteHonoursTheSaveMode() throws Exception {
        Path out = data.resolve("df");
        DataFrame small = session.read().parquet(source.toString()).filter(col("id").lt(1000L));
        assertThat(small.write().parquet(out.toString())).isEqualTo(1000);
        assertThatThrownBy(() -> small.write().parquet(out.toString())).isInstanceOf(SluiceException.class)
                .hasMessageContaining("already exists");
        assertThat(small.write().mode("append").parquet(out.toString())).isEqualTo(1000);
        assertThat(count(out)).isEqualTo(2000);
        assertThat(small.write().mode("overwrite").parquet(out.toString())).isEqualTo(1000);
        assertThat(count(out)).isEqualTo(1000);
        assertThat(partFiles(out)).allMatch(name -> name.endsWith(".parquet"));
    }

    @Test
    void sqlComposesWithTheDataFrameApiAndWritesCsv() throws Exception {
        Path out = data.resolve("composed");
        DataFrame grouped = session.sql("SELECT s, i, m FROM src WHERE id < 6000").filter(col("i").isNotNull())
                .groupBy("s").agg(countStar().as("n"), sum(col("m")).as("total"));
        grouped.write().csv(out.toString());
        String expected = "SELECT s, count(*) AS n, sum(m) AS total FROM read_parquet('" + source + "/*.parquet') "
                + "WHERE id < 6000 AND i IS NOT NULL GROUP BY s ORDER BY s";
        assertThat(duck.query("SELECT s, n, total FROM read_csv('" + out + "/*.csv', header = true, "
                + "types = {'total': 'DECIMAL(18,2)'}) ORDER BY s")).isEqualTo(duck.query(expected));
        assertThat(DuckDbOracle.normalize(grouped.orderBy("s").collect())).isEqualTo(duck.query(expected));
    }

    @Test
    void aJobFailingInALaterPartitionLeavesTheTargetAsItWas() throws Exception {
        Path bad = data.resolve("bad");
        Files.createDirectories(bad);
        for (int f = 0; f < FILES; f++) {
            StringBuilder csv = new StringBuilder("k,v\n");
            for (int r = 0; r < ROWS_PER_FILE; r++) {
                csv.append(f * ROWS_PER_FILE + r).append(',')
                        .append(f == FILES - 1 && r == ROWS_PER_FILE - 1 ? "oops" : "n" + r).append('\n');
            }
            Files.writeString(bad.resolve("part-" + f + ".csv"), csv);
        }
        session.sql("CREATE EXTERNAL TABLE bad STORED AS CSV LOCATION '" + bad + "'");
        String cast = "SELECT k, CAST(SUBSTRING(v FROM 2) AS INT) AS v FROM bad";

        Path fresh = data.resolve("never");
        assertThatThrownBy(() -> session.sql("CREATE TABLE never STORED AS PARQUET LOCATION '" + fresh + "' AS " + cast))
                .isInstanceOf(SluiceException.class).hasMessageContaining("cannot cast 'ops'");
        assertThat(Files.exists(fresh)).as("a directory the failed job created").isFalse();
        assertThatThrownBy(() -> session.sql("SELECT * FROM never")).hasMessageContaining("unknown table 'never'");

        Path existing = data.resolve("existing");
        session.read().parquet(source.toString()).filter(col("id").lt(10L)).write().parquet(existing.toString());
        List<String> before = listing(existing);
        assertThatThrownBy(() -> session.sql(cast).write().mode("append").parquet(existing.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("cannot cast 'ops'");
        assertThatThrownBy(() -> session.sql(cast).write().mode("overwrite").csv(existing.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("cannot cast 'ops'");
        assertThat(listing(existing)).isEqualTo(before).doesNotContain("_temporary");
        assertThat(count(existing)).isEqualTo(10);
    }

    @Test
    void aRetriedTaskAttemptDoesNotDuplicateRows() throws Exception {
        Path out = data.resolve("retried");
        // the first attempt of partition 0 writes its whole file, then fails closing it
        FaultyFileSystem.failClosing(p -> p.getParent().getName().endsWith("-a0") && p.getName().startsWith("part-00000-"));
        try {
            long written = session.read().parquet(source.toString()).write()
                    .parquet(FaultyFileSystem.SCHEME + "://" + out);
            assertThat(written).isEqualTo(FILES * ROWS_PER_FILE);
        } finally {
            assertThat(FaultyFileSystem.failedCloses()).as("injected failures").isEqualTo(1);
            FaultyFileSystem.failClosing(p -> false);
        }
        assertThat(count(out)).isEqualTo(FILES * ROWS_PER_FILE);
        assertThat(duck.query("SELECT count(*), count(DISTINCT id) FROM read_parquet('" + out + "/*.parquet')"))
                .containsExactly(List.of((long) FILES * ROWS_PER_FILE, (long) FILES * ROWS_PER_FILE));
        assertThat(partFiles(out)).hasSize(FILES).anyMatch(name -> name.startsWith("part-00000-"));
        assertThat(listing(out)).contains("_SUCCESS").doesNotContain("_temporary");
    }

    @Test
    void aColumnWithoutATypeIsRefusedBeforeAnythingRuns() {
        Path out = data.resolve("untyped");
        assertThatThrownBy(() -> session.sql("SELECT NULL AS n, 1 AS one").write().parquet(out.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("column 'n' has no type");
        assertThat(Files.exists(out)).isFalse();
        assertThat(session.sql("SELECT CAST(NULL AS INT) AS n, 1 AS one").write().parquet(out.toString())).isEqualTo(1);
        assertThat(session.read().parquet(out.toString()).schema().field(0).type()).isEqualTo(DataType.INT32);
    }

    private static long count(Path dir) {
        return (Long) session.read().parquet(dir.toString()).agg(countStar()).collect().rows().get(0).get(0);
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList();
        }
    }

    private static List<String> partFiles(Path dir) throws IOException {
        return listing(dir).stream().filter(n -> n.startsWith("part-")).toList();
    }
}
