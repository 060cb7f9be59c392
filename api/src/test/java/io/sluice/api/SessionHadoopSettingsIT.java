package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.sluice.common.SluiceException;
import io.sluice.datasource.file.StoreRequests;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.testfixtures.S3ProxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SET sluice.hadoop.K = V} for one session: the node's configuration holds a wrong S3A secret
 * for an S3-compatible server on 127.0.0.1, a script that sets the right one reads and writes the
 * bucket (its planning on the coordinator, its scans and writes on the workers, which get the
 * setting with the tasks), a script without it fails naming the path, the secret never shows in
 * EXPLAIN or in the SET status line, and node-only keys are refused by name. A reader's Hadoop
 * options travel with its scan: two of them, on two servers, join and union; a writer's hold for its write.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionHadoopSettingsIT {
    private static final String ACCESS_KEY = "sluice-session-access";
    private static final String SECRET_KEY = "sluice-session-secret-5e2a";
    private static final String SET_SECRET = "SET sluice.hadoop.fs.s3a.secret.key = '" + SECRET_KEY + "';\n";

    @TempDir
    static Path dir;

    private Path buckets;
    private S3ProxyServer server;
    private Map<String, String> nodeSettings;
    private DuckDbOracle duck;
    private Session session;

    @BeforeAll
    void start() throws Exception {
        buckets = dir.resolve("buckets");
        duck = new DuckDbOracle();
        Path sales = Files.createDirectories(buckets.resolve("lake/sales"));
        for (int f = 0; f < 2; f++) {
            duck.writeParquet("SELECT range AS id, 'region-' || (range % 5) AS region, (range * 7) % 1000 AS amount "
                    + "FROM range(" + f * 20_000 + ", " + (f + 1) * 20_000 + ")", sales.resolve("part-" + f + ".parquet"), 8_000);
        }
        Path events = buckets.resolve("lake/events");
        duck.execute("COPY (SELECT range AS id, CAST(range % 6 AS INTEGER) AS g, CAST((range // 6) % 4 AS INTEGER) AS h "
                + "FROM range(0, 2400)) TO '" + events + "' (FORMAT parquet, PARTITION_BY (g, h))");
        Files.createDirectories(events.resolve("_temporary/g=9/h=9"));
        Files.copy(sales.resolve("part-0.parquet"), events.resolve("_temporary/g=9/h=9/part-0.parquet"));
        Files.createDirectories(events.resolve("g=0/.hidden"));
        Files.copy(sales.resolve("part-0.parquet"), events.resolve("g=0/.hidden/part-0.parquet"));
        Files.writeString(events.resolve("_SUCCESS"), "");
        Path text = Files.createDirectories(buckets.resolve("lake/text"));
        duck.execute("COPY (SELECT range AS id, 'r' || (range % 3) AS region FROM range(0, 300)) TO '"
                + text.resolve("part-0.csv") + "' (FORMAT csv, HEADER)");
        duck.execute("COPY (SELECT range AS id, 'r' || (range % 3) AS region FROM range(300, 500)) TO '"
                + text.resolve("part-1.csv") + "' (FORMAT csv, HEADER)");
        Path json = Files.createDirectories(buckets.resolve("lake/json"));
        duck.execute("COPY (SELECT range AS id, 'r' || (range % 3) AS region FROM range(0, 300)) TO '"
                + json.resolve("part-0.json") + "' (FORMAT json)");
        server = S3ProxyServer.start(buckets, ACCESS_KEY, SECRET_KEY);
        nodeSettings = new TreeMap<>(server.hadoopSettings(ACCESS_KEY, "the-node-has-a-wrong-secret"));
        nodeSettings.forEach(System::setProperty);
        session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(3));
        session.sql(SET_SECRET + "CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION 's3a://lake/sales'").collect();
    }

    @AfterAll
    void stop() throws Exception {
        try (DuckDbOracle d = duck; Session s = session; S3ProxyServer p = server) {
            nodeSettings.keySet().forEach(System::clearProperty);
        }
    }

    @Test
    void aScriptWithTheSecretReadsAndWritesTheBucket() throws Exception {
        String query = "SELECT region, count(*) AS n, sum(amount) AS total FROM %s GROUP BY region ORDER BY region";
        assertThat(DuckDbOracle.normalize(session.sql(SET_SECRET + String.format(query, "sales")).collect()))
                .isEqualTo(duck.query(String.format(query, local("lake/sales"))));
        // the path of sluice sql at a terminal: the script runs whole on the coordinator, its last query streamed
        assertThat(DuckDbOracle.normalize(session.sql(SET_SECRET + String.format(query, "sales"), "at-a-terminal")))
                .isEqualTo(duck.query(String.format(query, local("lake/sales"))));
        session.sql(SET_SECRET + "CREATE TABLE copied STORED AS PARQUET LOCATION 's3a://lake/copied' AS "
                + "SELECT id, region FROM sales WHERE id < 1234").collect();
        assertThat(DuckDbOracle.normalize(session.sql(SET_SECRET + "SELECT count(*) AS n, max(id) AS hi FROM copied").collect()))
                .isEqualTo(duck.query("SELECT count(*) AS n, max(id) AS hi FROM " + local("lake/copied")));
        assertThat(duck.query("SELECT count(*) FROM " + local("lake/copied"))).isEqualTo(List.of(List.of(1234L)));
    }

    @Test
    void aScriptWithoutTheSecretFailsNamingThePathAndTheClusterKeepsServing() throws Exception {
        assertThatThrownBy(() -> session.sql("SELECT count(*) AS n FROM sales").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("s3a://lake/sales")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET_KEY));
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE other STORED AS PARQUET LOCATION 's3a://lake/sales'")
                .collect()).isInstanceOf(SluiceException.class).hasMessageContaining("s3a://lake/sales");
        assertThatThrownBy(() -> session.sql("CREATE TABLE refused STORED AS PARQUET LOCATION 's3a://lake/refused' AS "
                + "SELECT 1 AS x").collect()).isInstanceOf(SluiceException.class).hasMessageContaining("s3a://lake/refused");
        assertThat(Files.exists(buckets.resolve("lake/refused"))).isFalse();
        assertThat(DuckDbOracle.normalize(session.sql(SET_SECRET + "SELECT count(*) AS n FROM sales").collect()))
                .isEqualTo(List.of(List.of(40_000L)));
    }

    @Test
    void theSecretNeverShowsInExplainOrTheSetStatus() {
        String status = session.sql(SET_SECRET.strip()).collect().toString();
        assertThat(status).contains("sluice.hadoop.fs.s3a.secret.key").doesNotContain(SECRET_KEY);
        for (String explain : List.of("EXPLAIN", "EXPLAIN VERBOSE", "EXPLAIN ANALYZE")) {
            String plan = text(SET_SECRET + explain + " SELECT region, count(*) AS n FROM sales GROUP BY region");
            assertThat(plan).as(explain).contains("FileScanExec").doesNotContain(SECRET_KEY);
        }
    }

    @Test
    void nodeOnlyKeysAreRefusedByName() {
        for (String key : List.of("fs.s3a.impl", "fs.defaultFS", "fs.s3a.buffer.dir",
                "hadoop.security.credential.provider.path")) {
            assertThatThrownBy(() -> session.sql("SET sluice.hadoop." + key + " = 'x'").collect()).as(key)
                    .isInstanceOf(SluiceException.class)
                    .hasMessageContaining("sluice.hadoop." + key.toLowerCase(Locale.ROOT) + " is node-only"); // SET names are lower case
        }
        assertThatThrownBy(() -> session.sql("SET sluice.hadoop.fs.s3a.connection.maximum = '${fs.s3a.secret.key}'")
                .collect()).isInstanceOf(SluiceException.class).hasMessageContaining("may not hold a ${...} reference");
        assertThatThrownBy(() -> session.sql("SET sluice.hadoop.fs.s3a.aws.credentials.provider = 'x.Y'").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("is node-only");
        assertThat(DuckDbOracle.normalize(session.sql(SET_SECRET + "SELECT count(*) AS n FROM sales").collect()))
                .isEqualTo(List.of(List.of(40_000L)));
    }

    @Test
    void tasksOpenFilesWithoutHeadsOrFooterReadsAndAQueryListsOnce() {
        String query = SET_SECRET + "SELECT sum(amount) AS s FROM sales WHERE id > 100";
        session.sql(query).collect(); // footers and statistics now known
        Map<String, String> overrides = Map.of("fs.s3a.secret.key", SECRET_KEY); // what SET_SECRET sets
        Map<String, Long> before = StoreRequests.of("s3a://lake/", overrides);
        session.sql(query).collect();
        Map<String, Long> requests = StoreRequests.since(before, StoreRequests.of("s3a://lake/", overrides));
        // S3A's request counters live in a JVM-wide registry that, after other ITs in the same JVM, was
        // seen to count nothing at all (a query that reads must make GETs): then this count says nothing
        assumeFalse(requests.isEmpty(), "SKIP: S3A's storage statistics counted no request in this JVM "
                + "(other ITs' file systems came first); run this IT alone to count them");
        // 2 files of 3 row groups: a GET per row group (its chunks in one vectored read), one LIST, no HEAD
        assertThat(requests).as("S3 requests of one query").containsEntry("GET", 6L).containsEntry("LIST", 1L)
                .doesNotContainKey("HEAD");
    }

    @Test
    void csvAndJsonTasksOpenFilesWithoutHeads() throws Exception {
        Map<String, String> overrides = Map.of("fs.s3a.secret.key", SECRET_KEY);
        session.sql(SET_SECRET + "CREATE EXTERNAL TABLE text_s3 STORED AS CSV LOCATION 's3a://lake/text';\n"
                + "CREATE EXTERNAL TABLE json_s3 STORED AS JSON LOCATION 's3a://lake/json'").collect();
        String csv = SET_SECRET + "SELECT region, count(*) AS n, sum(id) AS s FROM text_s3 GROUP BY region ORDER BY region";
        String json = SET_SECRET + "SELECT region, count(*) AS n, sum(id) AS s FROM json_s3 GROUP BY region ORDER BY region";
        Map<String, Long> before = StoreRequests.of("s3a://lake/", overrides);
        assertThat(DuckDbOracle.normalize(session.sql(csv).collect()))
                .isEqualTo(duck.query("SELECT region, count(*) AS n, sum(id) AS s FROM read_csv('" + buckets.resolve("lake/text")
                        + "/*.csv') GROUP BY region ORDER BY region"));
        assertThat(DuckDbOracle.normalize(session.sql(json).collect()))
                .isEqualTo(duck.query("SELECT region, count(*) AS n, sum(id) AS s FROM read_json('" + buckets.resolve("lake/json")
                        + "/*.json') GROUP BY region ORDER BY region"));
        Map<String, Long> requests = StoreRequests.since(before, StoreRequests.of("s3a://lake/", overrides));
        assumeFalse(requests.isEmpty(), "SKIP: S3A's storage statistics counted no request in this JVM "
                + "(other ITs' file systems came first); run this IT alone to count them");
        // listing found each file's length: planning's statistics and the tasks open the files without a HEAD
        assertThat(requests).as("S3 requests of a CSV and a JSON query").containsKey("GET").doesNotContainKey("HEAD");
    }

    @Test
    void theDataFrameReaderTakesHadoopKeysAsOptions() throws Exception {
        DataFrame sales = session.read().option("sluice.hadoop.fs.s3a.secret.key", SECRET_KEY).parquet("s3a://lake/sales");
        assertThat(sales.count()).isEqualTo(40_000L);
        assertThat(DuckDbOracle.normalize(sales.filter("id < 1234").groupBy("region").count().orderBy("region").collect()))
                .isEqualTo(duck.query("SELECT region, count(*) AS count FROM " + local("lake/sales")
                        + " WHERE id < 1234 GROUP BY region ORDER BY region"));
        assertThatThrownBy(() -> session.read().parquet("s3a://lake/sales")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("s3a://lake/sales");
        assertThatThrownBy(() -> session.read().option("sluice.hadoop.fs.s3a.impl", "x.Y").parquet("s3a://lake/sales"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("sluice.hadoop.fs.s3a.impl is node-only");
        assertThat(session.read().option("sluice.hadoop.fs.s3a.secret.key", SECRET_KEY).format("csv")
                .load("s3a://lake/text").count()).isEqualTo(500L);
    }

    /**
     * Two readers of the same path {@code s3a://lake/sales} with their own options: one on the node's
     * server with the secret as an option, one on a second server (endpoint and credentials of its own).
     * Joined and unioned, each scan lists and opens its files with its own overrides on the workers;
     * the join written to the second server with the writer's options, which are the write's only (its
     * input's first reader keeps the node's endpoint and access key under its own secret); neither
     * secret shows in EXPLAIN or the plan's text.
     */
    @Test
    void twoReadersWithTheirOwnHadoopOptionsJoinAndUnion() throws Exception {
        String otherSecret = "sluice-other-secret-91c4";
        Path other = dir.resolve("other-buckets");
        duck.writeParquet("SELECT range AS id, 'other-' || (range % 3) AS label FROM range(0, 600)",
                Files.createDirectories(other.resolve("lake/sales")).resolve("part-0.parquet"), 1_000);
        try (S3ProxyServer second = S3ProxyServer.start(other, "sluice-other-access", otherSecret)) {
            DataFrame first = session.read().option("sluice.hadoop.fs.s3a.secret.key", SECRET_KEY).parquet("s3a://lake/sales");
            DataFrame labels = session.read().options(Map.of("sluice.hadoop.fs.s3a.endpoint", second.endpoint(),
                    "sluice.hadoop.fs.s3a.access.key", "sluice-other-access", "sluice.hadoop.fs.s3a.secret.key", otherSecret))
                    .parquet("s3a://lake/sales");
            String otherFile = "read_parquet('" + other.resolve("lake/sales") + "/*.parquet')";
            DataFrame joined = first.join(labels, "id").groupBy("label").count().orderBy("label");
            assertThat(DuckDbOracle.normalize(joined.collect())).isEqualTo(duck.query("SELECT label, count(*) AS count FROM "
                    + local("lake/sales") + " s JOIN " + otherFile + " o USING (id) GROUP BY label ORDER BY label"));
            DataFrame unioned = labels.select("id").union(first.select("id")).agg(Functions.count(Functions.col("id")).as("n"),
                    Functions.max(Functions.col("id")).as("hi"));
            assertThat(DuckDbOracle.normalize(unioned.collect())).isEqualTo(List.of(List.of(40_600L, 39_999L)));
            Map<String, String> toSecond = Map.of("sluice.hadoop.fs.s3a.endpoint", second.endpoint(),
                    "sluice.hadoop.fs.s3a.access.key", "sluice-other-access", "sluice.hadoop.fs.s3a.secret.key", otherSecret);
            // the writer's options are the write's only: its input's first reader still lists the node's server with its secret
            joined.write().options(toSecond).mode("overwrite").parquet("s3a://lake/joined");
            assertThat(duck.query("SELECT count(*) FROM read_parquet('" + other.resolve("lake/joined") + "/*.parquet')"))
                    .isEqualTo(List.of(List.of(3L)));
            assertThat(buckets.resolve("lake/joined")).doesNotExist();
            assertThat(session.read().options(toSecond).parquet("s3a://lake/joined").count()).isEqualTo(3L);
            for (String text : List.of(joined.explain(), unioned.explain(), joined.logicalPlan().toString())) {
                assertThat(text).doesNotContain(SECRET_KEY).doesNotContain(otherSecret);
            }
        }
    }

    @Test
    void aPartitionedTreeListsFlatOnS3AsTheWalkDoesOnDisk() throws Exception {
        session.sql(SET_SECRET + "CREATE EXTERNAL TABLE events_s3 STORED AS PARQUET LOCATION 's3a://lake/events'").collect();
        session.sql("CREATE EXTERNAL TABLE events_disk STORED AS PARQUET LOCATION '" + buckets.resolve("lake/events") + "'")
                .collect();
        String query = "SELECT g, h, count(*) AS n, sum(id) AS s FROM %s GROUP BY g, h ORDER BY g, h";
        assertThat(DuckDbOracle.normalize(session.sql(SET_SECRET + String.format(query, "events_s3")).collect()))
                .isEqualTo(DuckDbOracle.normalize(session.sql(String.format(query, "events_disk")).collect()))
                .hasSize(24);
        String explain = "EXPLAIN SELECT count(*) FROM %s WHERE g = 2 AND h = 1";
        assertThat(text(SET_SECRET + String.format(explain, "events_s3"))).contains("files=1/24 partitions=1/24");
        assertThat(text(String.format(explain, "events_disk"))).contains("files=1/24 partitions=1/24");
    }

    private String local(String path) {
        return "read_parquet('" + buckets.resolve(path) + "/*.parquet')";
    }

    private String text(String sql) {
        return session.sql(sql).collect().rows().stream().map(r -> String.valueOf(r.get(0))).collect(Collectors.joining("\n"));
    }
}
