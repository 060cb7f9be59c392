package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.Redaction;
import io.sluice.datasource.file.StoreRequests;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.testfixtures.Ports;
import io.sluice.testfixtures.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice on an S3-compatible server (S3Proxy on 127.0.0.1, checking signatures): an embedded
 * cluster configured only through {@code sluice.hadoop.*} settings reads Parquet from a bucket
 * with DuckDB's answers on the same files, writes to a bucket without renaming, leaves nothing
 * visible after a failed write, and names the path on every bad location.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ObjectStoreIT {
    private static final String ACCESS_KEY = "sluice-test-access";
    private static final String SECRET_KEY = "sluice-test-secret-d7c1";

    @TempDir
    static Path dir;

    private Path buckets;
    private S3ProxyServer server;
    private Map<String, String> settings;
    private DuckDbOracle duck;
    private Session session;

    @BeforeAll
    void start() throws Exception {
        buckets = dir.resolve("buckets");
        duck = new DuckDbOracle();
        Path sales = Files.createDirectories(buckets.resolve("lake/sales"));
        for (int f = 0; f < 4; f++) {
            duck.writeParquet("SELECT range AS id, 'region-' || (range % 5) AS region, (range * 7) % 1000 AS amount, "
                    + "CAST(range % 97 AS DOUBLE) / 4 AS price FROM range(" + f * 25_000 + ", " + (f + 1) * 25_000 + ")",
                    sales.resolve("part-" + f + ".parquet"), 10_000);
        }
        Files.createDirectories(buckets.resolve("denied/t"));
        Files.copy(sales.resolve("part-0.parquet"), buckets.resolve("denied/t/part-0.parquet"));
        server = S3ProxyServer.start(buckets, ACCESS_KEY, SECRET_KEY);
        settings = new java.util.TreeMap<>(server.hadoopSettings(ACCESS_KEY, SECRET_KEY));
        settings.put("sluice.hadoop.fs.s3a.bucket.denied.secret.key", "not-the-secret");
        settings.put("sluice.hadoop.fs.s3a.bucket.down.endpoint", "http://127.0.0.1:" + Ports.free());
        settings.forEach(System::setProperty);
        session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4));
        session.sql("CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION 's3a://lake/sales'");
    }

    @AfterAll
    void stop() throws Exception {
        try (DuckDbOracle d = duck; Session s = session; S3ProxyServer p = server) {
            settings.keySet().forEach(System::clearProperty);
        }
    }

    @Test
    void readsParquetFromABucketWithDuckDbsAnswersOnTheSameFiles() throws Exception {
        String local = "read_parquet('" + buckets.resolve("lake/sales") + "/*.parquet')";
        for (String query : List.of(
                "SELECT region, count(*) AS n, sum(amount) AS total, min(price) AS lo, max(id) AS hi FROM %s "
                        + "GROUP BY region ORDER BY region",
                "SELECT count(*) AS n, sum(price) AS p FROM %s WHERE id BETWEEN 12345 AND 67890 AND amount < 500",
                "SELECT id, amount FROM %s WHERE id %% 9973 = 0 ORDER BY id")) {
            assertThat(DuckDbOracle.normalize(session.sql(String.format(query, "sales")).collect())).as(query)
                    .isEqualTo(duck.query(String.format(query, local)));
        }
    }

    /**
     * A scan of one narrow column of a file whose other column is wide reads the footer and that
     * column's chunks with ranged GETs, a small part of the file: S3A's byte count says so.
     */
    @Test
    void readsOnlyTheFooterAndTheSelectedColumnChunks() throws Exception {
        Path wide = Files.createDirectories(buckets.resolve("lake/wide"));
        duck.writeParquet("SELECT range AS id, repeat(md5(CAST(range AS VARCHAR)), 8) AS pad FROM range(200000)",
                wide.resolve("part-0.parquet"), 50_000);
        long size = Files.size(wide.resolve("part-0.parquet"));
        session.sql("CREATE EXTERNAL TABLE wide STORED AS PARQUET LOCATION 's3a://lake/wide'");
        long before = s3aBytesRead();
        assertThat(DuckDbOracle.normalize(session.sql("SELECT sum(id) AS s FROM wide").collect()))
                .isEqualTo(duck.query("SELECT sum(id) AS s FROM read_parquet('" + wide + "/*.parquet')"));
        long read = s3aBytesRead() - before;
        assertThat(read).as("bytes read of a %d-byte file", size).isPositive().isLessThan(size / 4);
    }

    /**
     * The selected chunks of a row group are fetched with few ranged GETs: of id, amount and price,
     * with a 400 KB column between the first two and a wide one before price, id through amount is
     * one GET (S3A merges ranges less than {@code fs.s3a.vectored.read.min.seek.size} apart) and
     * price another; without merging it would be three GETs a row group.
     */
    @Test
    void aRowGroupsSelectedChunksAreFetchedWithAtMostTwoGets() throws Exception {
        Path gapped = Files.createDirectories(buckets.resolve("lake/gapped"));
        duck.writeParquet("SELECT range AS id, (range * 2654435761) % 1000003 AS noise, range % 1000 AS amount, "
                + "repeat(md5(CAST(range AS VARCHAR)), 8) AS pad, CAST(range % 97 AS DOUBLE) AS price FROM range(200000)",
                gapped.resolve("part-0.parquet"), 50_000);
        session.sql("CREATE EXTERNAL TABLE gapped STORED AS PARQUET LOCATION 's3a://lake/gapped'");
        String query = "SELECT sum(id) AS i, sum(amount) AS a, sum(price) AS p FROM %s";
        List<List<Object>> expected = duck.query(String.format(query, "read_parquet('" + gapped + "/*.parquet')"));
        assertThat(DuckDbOracle.normalize(session.sql(String.format(query, "gapped")).collect())).isEqualTo(expected);
        Map<String, Long> before = StoreRequests.of("s3a://lake/", Map.of()); // the footer is known from here on
        assertThat(DuckDbOracle.normalize(session.sql(String.format(query, "gapped")).collect())).isEqualTo(expected);
        Map<String, Long> requests = StoreRequests.since(before, StoreRequests.of("s3a://lake/", Map.of()));
        assertThat(requests.getOrDefault("GET", 0L)).as("GETs of 3 columns in 4 row groups: %s", requests)
                .isBetween(4L, 8L);
        assertThat(requests).doesNotContainKey("HEAD");
    }

    /**
     * A table of small files packed two to a task (130 files) is read with the next file of a task
     * opened ahead on the node's read-ahead pool: the answers are DuckDB's, and each file costs one
     * GET of its selected chunks, none twice, with no HEAD (footers known since planning, lengths
     * from the listing).
     */
    @Test
    void aTaskOfSmallFilesOpensTheNextAheadWithOneGetEach() throws Exception {
        Path small = Files.createDirectories(buckets.resolve("lake/small"));
        duck.execute("COPY (SELECT range AS id, range % 130 AS k, range * 3 AS v FROM range(13000)) TO '" + small
                + "' (FORMAT parquet, PARTITION_BY (k), OVERWRITE_OR_IGNORE true)");
        session.sql("CREATE EXTERNAL TABLE small STORED AS PARQUET LOCATION 's3a://lake/small'");
        // planning reads every footer, so the query's GETs are its column chunks alone
        assertThat(session.sql("EXPLAIN SELECT sum(v) FROM small").collect().rows().toString())
                .contains("130 partitions in 65 tasks");
        String query = "SELECT k, count(*) AS n, sum(v) AS s FROM %s GROUP BY k ORDER BY k";
        Map<String, Long> before = StoreRequests.of("s3a://lake/", Map.of());
        assertThat(DuckDbOracle.normalize(session.sql(String.format(query, "small")).collect()))
                .isEqualTo(duck.query(String.format(query, "read_parquet('" + small + "/*/*.parquet', hive_partitioning = true)")));
        Map<String, Long> requests = StoreRequests.since(before, StoreRequests.of("s3a://lake/", Map.of()));
        assertThat(requests.getOrDefault("GET", 0L)).as("GETs of 130 files: %s", requests).isEqualTo(130L);
        assertThat(requests).doesNotContainKey("HEAD");
    }

    /** Bytes read through every S3A file system of this JVM (the embedded cluster's workers too). */
    private static long s3aBytesRead() {
        return FileSystem.getAllStatistics().stream().filter(s -> s.getScheme().equals("s3a"))
                .mapToLong(FileSystem.Statistics::getBytesRead).sum();
    }

    @Test
    void createTableAsWritesToABucketWithoutRenamingAndReadsBack() throws Exception {
        String query = "SELECT region, count(*) AS n, sum(amount) AS total FROM %s GROUP BY region";
        session.sql("CREATE TABLE copy STORED AS PARQUET LOCATION 's3a://lake/copy' AS "
                + String.format(query, "sales"));
        Path copy = buckets.resolve("lake/copy");
        assertThat(names(copy)).contains("_SUCCESS").noneMatch(n -> n.startsWith("_temporary"));
        assertThat(Files.readString(copy.resolve("_SUCCESS"))).startsWith("# sluice commit manifest");
        String ordered = "SELECT region, n, total FROM %s ORDER BY region";
        List<List<Object>> expected = duck.query(String.format(query, "read_parquet('" + buckets.resolve("lake/sales")
                + "/*.parquet')") + " ORDER BY region");
        assertThat(DuckDbOracle.normalize(session.sql(String.format(ordered, "copy")).collect())).isEqualTo(expected);
        assertThat(duck.query(String.format(ordered, "read_parquet('" + copy + "/*.parquet')")))
                .as("DuckDB reading the written objects").isEqualTo(expected);
    }

    /**
     * Partitioned writes to a bucket ({@code PARTITIONED BY}, {@code partitionBy}, a dynamic
     * partition overwrite) commit through one manifest at the table's root: Sluice reads back what
     * DuckDB computes on the local files, and DuckDB reads the written objects the same.
     */
    @Test
    void partitionedWritesToABucketReadBackAsDuckDbComputes() throws Exception {
        String local = "read_parquet('" + buckets.resolve("lake/sales") + "/*.parquet')";
        session.sql("CREATE TABLE psales STORED AS PARQUET PARTITIONED BY (region) LOCATION 's3a://lake/psales' AS "
                + "SELECT id, amount, region FROM sales WHERE id < 20000").collect();
        Path written = buckets.resolve("lake/psales");
        assertThat(names(written)).contains("_SUCCESS", "region=region-0", "region=region-4")
                .noneMatch(n -> n.startsWith("_temporary"));
        assertThat(names(written.resolve("region=region-1"))).doesNotContain("_SUCCESS").isNotEmpty();
        String summary = "SELECT region, count(*) AS n, sum(amount) AS total, max(id) AS hi FROM %s GROUP BY region ORDER BY region";
        String original = "(SELECT id, amount, region FROM " + local + " WHERE id < 20000)";
        assertThat(DuckDbOracle.normalize(session.sql(String.format(summary, "psales")).collect()))
                .isEqualTo(duck.query(String.format(summary, original)));

        session.sql("INSERT OVERWRITE psales SELECT id, amount * 2, region FROM sales WHERE region = 'region-1' "
                + "AND id < 1000").collect();
        String replaced = "(SELECT id, amount, region FROM " + local + " WHERE id < 20000 AND region <> 'region-1' "
                + "UNION ALL SELECT id, amount * 2, region FROM " + local + " WHERE region = 'region-1' AND id < 1000)";
        List<List<Object>> expected = duck.query(String.format(summary, replaced));
        assertThat(DuckDbOracle.normalize(session.sql(String.format(summary, "psales")).collect())).isEqualTo(expected);
        assertThat(duck.query(String.format(summary, "read_parquet('" + written + "/*/*.parquet', hive_partitioning = true)")))
                .as("DuckDB reading the written objects: the replaced ones are gone").isEqualTo(expected);

        session.sql("SELECT id, amount, region FROM sales WHERE id >= 90000").write().partitionBy("region")
                .mode("append").parquet("s3a://lake/psales");
        String appended = "(SELECT * FROM " + replaced + " UNION ALL SELECT id, amount, region FROM " + local
                + " WHERE id >= 90000)";
        assertThat(DuckDbOracle.normalize(session.sql(String.format(summary, "psales")).collect()))
                .isEqualTo(duck.query(String.format(summary, appended)));
        assertServing();
    }

    @Test
    void aFailedWriteLeavesNothingVisible() throws Exception {
        Path csv = Files.createDirectories(dir.resolve("bad-csv"));
        for (int f = 0; f < 8; f++) {
            Files.writeString(csv.resolve("part-" + f + ".csv"), f == 5 ? "k,v\nk1,1\nk2,not-a-number\n" : "k,v\nk1,1\nk2,2\n");
        }
        session.sql("CREATE EXTERNAL TABLE bad STORED AS CSV LOCATION '" + csv + "'");
        assertThatThrownBy(() -> session.sql("CREATE TABLE failed STORED AS PARQUET LOCATION 's3a://lake/failed' AS "
                + "SELECT k, v FROM bad").collect()).isInstanceOf(SluiceException.class).hasMessageContaining("part-5.csv");
        assertThat(buckets.resolve("lake/failed")).doesNotExist();
        assertServing();
    }

    /**
     * Each bad input of a write's source (a JSON line that is not JSON, a truncated Parquet file
     * inside a directory, a partition directory whose value does not parse as its column's type, a
     * CSV row short of a field) and each bad target (a missing bucket, an unreachable endpoint)
     * fails the write with an error naming the path (and the line for JSON and CSV); the bucket's
     * existing target keeps exactly its objects and rows, and the cluster keeps serving.
     */
    @Test
    void badInputsFailAWriteNamingThePathAndLeaveTheTargetUnchanged() throws Exception {
        session.sql("CREATE TABLE kept STORED AS PARQUET LOCATION 's3a://lake/kept' AS SELECT id, region FROM sales "
                + "WHERE id < 10").collect();
        Path kept = buckets.resolve("lake/kept");
        List<String> before = names(kept);
        Path json = Files.createDirectories(dir.resolve("bad-json"));
        Files.writeString(json.resolve("a.json"), "{\"id\": 1, \"region\": \"x\"}\n");
        Files.writeString(json.resolve("b.json"), "{\"id\": 2, \"region\": \"y\"}\n{\"id\": 3, \"region\": \n");
        Path truncated = Files.createDirectories(dir.resolve("truncated"));
        duck.writeParquet("SELECT range AS id, 'r' AS region FROM range(0, 50)", truncated.resolve("part-0.parquet"), 50);
        byte[] whole = Files.readAllBytes(truncated.resolve("part-0.parquet"));
        Files.write(truncated.resolve("part-1.parquet"), java.util.Arrays.copyOf(whole, whole.length / 2));
        Path typed = dir.resolve("typed");
        for (String k : List.of("1", "2")) {
            duck.writeParquet("SELECT range AS id, 'r' AS region FROM range(0, 5)",
                    Files.createDirectories(typed.resolve("k=" + k)).resolve("part-0.parquet"), 5);
        }
        DataFrame typedRead = session.read().parquet(typed.toString()); // k typed INT from the directories seen now
        duck.writeParquet("SELECT range AS id, 'r' AS region FROM range(0, 5)",
                Files.createDirectories(typed.resolve("k=x1")).resolve("part-0.parquet"), 5);
        Path csv = Files.createDirectories(dir.resolve("short-csv"));
        Files.writeString(csv.resolve("part-0.csv"), "id,region\n1,a\n2\n");
        List<Map.Entry<DataFrame, List<String>>> sources = new java.util.ArrayList<>();
        sources.add(Map.entry(session.read().schema("id BIGINT, region STRING").json(json.toString()),
                List.of(json.resolve("b.json") + ": line 2")));
        sources.add(Map.entry(session.read().parquet(truncated.toString()), List.of(truncated.resolve("part-1.parquet").toString())));
        sources.add(Map.entry(typedRead.select("id", "region"), List.of("partition directory k=x1 of", "'x1' is not a INT")));
        sources.add(Map.entry(session.read().schema("id BIGINT, region STRING").csv(csv.toString()),
                List.of(csv.resolve("part-0.csv") + ": line 3")));
        for (Map.Entry<DataFrame, List<String>> source : sources) {
            assertThatThrownBy(() -> source.getKey().write().mode("overwrite").parquet("s3a://lake/kept"))
                    .as(source.getValue().get(0)).isInstanceOf(SluiceException.class)
                    .satisfies(e -> assertThat(e.getMessage()).contains(source.getValue()));
            assertThat(names(kept)).as("after " + source.getValue().get(0)).isEqualTo(before);
            assertThat(duck.query("SELECT count(*), max(id) FROM read_parquet('" + kept + "/*.parquet')"))
                    .isEqualTo(List.of(List.of(10L, 9L)));
        }
        for (String target : List.of("s3a://no-such-bucket/w", "s3a://down/w")) {
            assertThatThrownBy(() -> session.sql("CREATE TABLE w" + Math.abs(target.hashCode()) + " STORED AS PARQUET "
                    + "LOCATION '" + target + "' AS SELECT id FROM sales WHERE id < 10").collect()).as(target)
                    .isInstanceOf(SluiceException.class).hasMessageContaining(target);
        }
        assertThat(DuckDbOracle.normalize(session.sql("SELECT count(*) AS n, max(id) AS hi FROM kept").collect()))
                .isEqualTo(List.of(List.of(10L, 9L)));
        assertServing();
    }

    @Test
    void badLocationsFailNamingThePathAndTheClusterKeepsServing() throws Exception {
        Map<String, String> expected = Map.of(
                "s3a://no-such-bucket/t", "s3a://no-such-bucket/t",
                "s3a://lake/no-such-path", "s3a://lake/no-such-path",
                "s3a://denied/t", "s3a://denied/t",
                "s3a://down/t", "s3a://down/t");
        int n = 0;
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String table = "t" + n++;
            assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE " + table + " STORED AS PARQUET LOCATION '"
                    + e.getKey() + "'").collect()).as(e.getKey()).isInstanceOf(SluiceException.class)
                    .hasMessageContaining(e.getValue())
                    .satisfies(error -> assertThat(error.getMessage()).doesNotContain(SECRET_KEY));
            assertServing();
        }
    }

    @Test
    void credentialsNeverShowInStatusLines() {
        String status = session.sql("SET sluice.optimizer.enabled = true").collect().toString();
        assertThat(status).doesNotContain(SECRET_KEY);
        assertThat(Redaction.isSensitive("sluice.hadoop.fs.s3a.secret.key")).isTrue();
    }

    private void assertServing() throws Exception {
        assertThat(DuckDbOracle.normalize(session.sql("SELECT count(*) AS n FROM sales").collect()))
                .isEqualTo(duck.query("SELECT count(*) AS n FROM read_parquet('" + buckets.resolve("lake/sales") + "/*.parquet')"));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
