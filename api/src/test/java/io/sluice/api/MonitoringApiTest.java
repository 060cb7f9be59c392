package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.common.SluiceException;
import io.sluice.kernels.QueryResult;
import io.sluice.testfixtures.DuckDbOracle;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitoring REST API ({@code /api/v1}, docs/monitoring.md) on a real embedded cluster over
 * HTTP: a partitioned join with a grouping on its key runs as three stages, and the API shows
 * them with their parents, task counts and the rows each wrote, equal to the counts DuckDB gives
 * on the same files; a task failing on bad input shows its error, as does its query; requests
 * without the secret are refused.
 */
class MonitoringApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static Session session;
    private static LocalCluster cluster;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        session = Session.local(LocalCluster.Options.of(2).withHttpPort(0).withShufflePartitions(4));
        cluster = session.localCluster();
        Path a = Files.createDirectories(data.resolve("a"));
        Path b = Files.createDirectories(data.resolve("b"));
        for (int f = 0; f < 3; f++) {
            duck.execute("COPY (SELECT range % 500 AS k, range AS v FROM range(" + f * 4000 + ", " + (f + 1) * 4000
                    + ")) TO '" + a.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
        }
        for (int f = 0; f < 2; f++) {
            duck.execute("COPY (SELECT range % 700 AS k, range AS w FROM range(" + f * 1500 + ", " + (f + 1) * 1500
                    + ")) TO '" + b.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
        }
        duck.execute("CREATE VIEW a AS SELECT * FROM read_parquet('" + a + "/*.parquet')");
        duck.execute("CREATE VIEW b AS SELECT * FROM read_parquet('" + b + "/*.parquet')");
        session.sql("CREATE EXTERNAL TABLE a STORED AS PARQUET LOCATION '" + a + "'");
        session.sql("CREATE EXTERNAL TABLE b STORED AS PARQUET LOCATION '" + b + "'");
        Path bad = Files.createDirectories(data.resolve("bad"));
        Files.writeString(bad.resolve("part-0.csv"), "k,v\n1,10\n2,20\n");
        Files.writeString(bad.resolve("part-1.csv"), "k,v\n3,30\n4,not-a-number\n");
        session.sql("CREATE EXTERNAL TABLE bad (k BIGINT, v BIGINT) STORED AS CSV LOCATION '" + bad + "'");
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    @Test
    void aJoinShowsItsThreeStagesWithTheirTasksAndTrueRowCounts() throws Exception {
        String query = "SELECT a.k, count(*) AS n, sum(b.w) AS s FROM a JOIN b ON a.k = b.k GROUP BY a.k";
        QueryResult result = session.sql("SET sluice.join.broadcast-threshold = -1; "
                + "SET sluice.join.runtime-filter-threshold = -1; " + query, "monitor-join");
        long resultRows = count("SELECT count(*) FROM (" + query + ")");
        assertThat((long) result.rows().size()).isEqualTo(resultRows);

        JsonNode detail = finished(queryId(query));
        assertThat(detail.get("state").asText()).isEqualTo("FINISHED");
        assertThat(detail.get("rows").asLong()).isEqualTo(resultRows);
        assertThat(detail.get("error").isNull()).isTrue();
        assertThat(detail.get("endTime").asLong()).isGreaterThanOrEqualTo(detail.get("startTime").asLong());
        assertThat(detail.get("plan").asText()).contains("Stage 0").contains("rows=");
        JsonNode stages = detail.get("stages");
        assertThat(stages).hasSize(3);

        List<Long> scanRows = new ArrayList<>();
        JsonNode resultStage = null;
        for (JsonNode stage : stages) {
            assertThat(stage.get("state").asText()).as("stage %s", stage.get("id")).isEqualTo("FINISHED");
            int tasks = stage.get("tasks").asInt();
            assertThat(tasks).isPositive();
            assertThat(stage.get("tasksCompleted").asInt()).isEqualTo(tasks);
            assertThat(stage.get("tasksRunning").asInt()).isZero();
            assertThat(stage.get("operators")).isNotEmpty();
            assertThat(stage.get("bytes").asLong()).isPositive();
            JsonNode attempts = get("/api/v1/queries/" + detail.get("id").asText() + "/stages/" + stage.get("id").asInt()
                    + "/tasks", 200);
            assertThat(attempts.size()).isGreaterThanOrEqualTo(tasks);
            long taskRows = 0;
            Set<Integer> partitions = new HashSet<>();
            for (JsonNode attempt : attempts) {
                assertThat(attempt.get("state").asText()).isEqualTo("FINISHED");
                assertThat(attempt.get("worker").asText()).matches("127\\.0\\.0\\.1:\\d+");
                assertThat(attempt.get("error").isNull()).isTrue();
                partitions.add(attempt.get("partition").asInt());
                taskRows += attempt.get("rows").asLong();
            }
            assertThat(partitions).hasSize(tasks);
            assertThat(taskRows).isEqualTo(stage.get("rows").asLong());
            if (stage.get("parents").isEmpty()) {
                scanRows.add(stage.get("rows").asLong());
                assertThat(stage.get("inputRows").asLong()).as("a scan stage's input: the rows its scans read")
                        .isEqualTo(stage.get("rows").asLong());
            } else {
                resultStage = stage;
            }
        }
        assertThat(scanRows).containsExactlyInAnyOrder(count("SELECT count(*) FROM a"), count("SELECT count(*) FROM b"));
        assertThat(resultStage).isNotNull();
        assertThat(resultStage.get("parents")).hasSize(2);
        assertThat(resultStage.get("tasks").asInt()).isEqualTo(4);
        assertThat(resultStage.get("rows").asLong()).isEqualTo(resultRows);
        assertThat(resultStage.get("inputRows").asLong())
                .isEqualTo(count("SELECT count(*) FROM a") + count("SELECT count(*) FROM b"));
        JsonNode exchanges = detail.get("exchanges");
        assertThat(exchanges).hasSize(2);
        for (JsonNode exchange : exchanges) {
            assertThat(exchange.get("toStage").asInt()).isEqualTo(resultStage.get("id").asInt());
            assertThat(exchange.get("kind").asText()).isEqualTo("hash");
            assertThat(scanRows).contains(exchange.get("rows").asLong());
        }

        JsonNode summary = null;
        for (JsonNode q : get("/api/v1/queries", 200)) {
            if (q.get("id").equals(detail.get("id"))) {
                summary = q;
            }
        }
        assertThat(summary).isNotNull();
        assertThat(summary.get("sql").asText()).isEqualTo(query);
        assertThat(summary.has("endTime") && summary.has("durationMs") && summary.has("error")).isTrue();
    }

    @Test
    void aTaskFailingOnBadInputShowsItsError() throws Exception {
        String query = "SELECT sum(v) AS s FROM bad";
        assertThatThrownBy(() -> session.sql(query, "monitor-bad")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("not-a-number");
        JsonNode detail = finished(queryId(query));
        assertThat(detail.get("state").asText()).isEqualTo("FAILED");
        assertThat(detail.get("error").asText()).contains("not-a-number");
        assertThat(detail.get("rows").isNull()).isTrue();
        List<String> errors = new ArrayList<>();
        for (JsonNode stage : detail.get("stages")) {
            for (JsonNode attempt : get("/api/v1/queries/" + detail.get("id").asText() + "/stages/"
                    + stage.get("id").asInt() + "/tasks", 200)) {
                if (attempt.get("state").asText().equals("FAILED")) {
                    errors.add(attempt.get("error").asText());
                }
            }
        }
        assertThat(errors).isNotEmpty().allSatisfy(e -> assertThat(e).contains("not-a-number"));
        assertThat(detail.get("stages").get(0).get("tasksFailed").asInt()).isPositive();
        // the cluster keeps serving
        assertThat(session.sql("SELECT count(*) AS n FROM a", "monitor-after").rows().get(0).get(0)).isEqualTo(12000L);
    }

    @Test
    void metricsParseAsPrometheusTextAndCountersMoveWithAQuery() throws Exception {
        List<PrometheusText.Sample> before = PrometheusText.parse(metrics());
        String query = "SELECT k % 7 AS g, count(*) AS n FROM a GROUP BY k % 7";
        session.sql(query, "monitor-metrics");
        String id = queryId(query);
        JsonNode detail = finished(id);
        int tasks = 0;
        for (JsonNode stage : detail.get("stages")) {
            tasks += stage.get("tasks").asInt();
        }
        String text = metrics();
        List<PrometheusText.Sample> after = PrometheusText.parse(text);
        Map<String, String> none = Map.of();
        assertThat(moved(before, after, "sluice_queries_started_total", none)).as(text).isGreaterThanOrEqualTo(1);
        assertThat(moved(before, after, "sluice_queries_ended_total", Map.of("state", "FINISHED"))).isGreaterThanOrEqualTo(1);
        assertThat(moved(before, after, "sluice_tasks_ended_total", Map.of("state", "FINISHED")))
                .isGreaterThanOrEqualTo(tasks);
        assertThat(moved(before, after, "sluice_task_duration_seconds_count", none)).isGreaterThanOrEqualTo(tasks);
        assertThat(moved(before, after, "sluice_task_duration_seconds_bucket", Map.of("le", "+Inf")))
                .isGreaterThanOrEqualTo(tasks);
        assertThat(moved(before, after, "sluice_shuffle_written_bytes_total", none)).isPositive();
        assertThat(moved(before, after, "sluice_shuffle_fetched_bytes_total", none)).isPositive();
        assertThat(after).anySatisfy(s -> assertThat(s.name()).isEqualTo("sluice_shuffle_fetch_failures_total"));
        assertThat(after).anySatisfy(s -> assertThat(s.name()).isEqualTo("sluice_spill_bytes_total"));
        assertThat(PrometheusText.value(after, "sluice_queries_running", none)).isZero();
        assertThat(after).anySatisfy(s -> assertThat(s.name()).startsWith("jvm_memory_used_bytes"));
        assertThat(after).anySatisfy(s -> assertThat(s.name()).startsWith("jvm_gc_"));
        for (String worker : List.of("worker-1", "worker-2")) {
            assertThat(PrometheusText.value(after, "sluice_worker_slots", Map.of("worker", worker))).isEqualTo(2);
            assertThat(PrometheusText.value(after, "sluice_worker_memory_limit_bytes", Map.of("worker", worker)))
                    .isPositive();
        }
        HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + cluster.coordinator().httpPort() + "/metrics")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
    }

    @Test
    void theTestParserRefusesMalformedExpositions() {
        assertThatThrownBy(() -> PrometheusText.parse("# TYPE x counter\nx_total{a=\"1\" 2\n"))
                .hasMessageContaining("line 2");
        assertThatThrownBy(() -> PrometheusText.parse("y 1\n")).hasMessageContaining("without TYPE");
        assertThatThrownBy(() -> PrometheusText.parse("# TYPE x gauge\nx one\n")).hasMessageContaining("bad value");
        assertThat(PrometheusText.parse("# HELP x the x\n# TYPE x gauge\nx{a=\"q\\\"\"} +Inf\n")).hasSize(1);
    }

    private static double moved(List<PrometheusText.Sample> before, List<PrometheusText.Sample> after, String name,
            Map<String, String> labels) {
        return PrometheusText.value(after, name, labels) - PrometheusText.value(before, name, labels);
    }

    private static String metrics() throws Exception {
        HttpResponse<String> response = http.send(request("/metrics").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        return response.body();
    }

    @Test
    void unknownQueriesAndStagesAre404WithAJsonError() throws Exception {
        assertThat(get("/api/v1/queries/q-nope", 404).get("error").asText()).isEqualTo("no query q-nope");
        assertThat(get("/api/v1/queries/q-nope/stages/0/tasks", 404).get("error").asText()).contains("q-nope");
        HttpResponse<String> cancel = http.send(request("/api/v1/queries/q-nope/cancel")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(cancel.statusCode()).isEqualTo(404);
    }

    @Test
    void workersAreListedWithTheirSlots() throws Exception {
        JsonNode workers = get("/api/v1/workers", 200);
        assertThat(workers).hasSize(2);
        assertThat(get("/api/v1/server", 200).get("kind").asText()).isEqualTo("coordinator");
        for (JsonNode w : workers) {
            assertThat(w.get("slots").asInt()).isEqualTo(2);
            assertThat(w.get("state").asText()).isEqualTo("UP");
            assertThat(w.get("address").asText()).matches("127\\.0\\.0\\.1:\\d+");
            assertThat(w.has("memoryUsedBytes") && w.has("memoryLimitBytes") && w.has("shuffleBytesHeld")).isTrue();
        }
    }

    @Test
    void requestsWithoutTheSecretAreRefused() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + cluster.coordinator().httpPort() + "/api/v1/queries")).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.body()).doesNotContain("\"id\"");
    }

    /** The id of the newest query with this SQL text. */
    private static String queryId(String sql) throws Exception {
        for (JsonNode q : get("/api/v1/queries", 200)) {
            if (sql.equals(q.get("sql").asText())) {
                return q.get("id").asText();
            }
        }
        throw new AssertionError("no query listed with the text " + sql);
    }

    /** The query's detail once its end has been applied (events arrive asynchronously), within 10 s. */
    private static JsonNode finished(String id) throws Exception {
        long deadline = System.currentTimeMillis() + 10_000;
        JsonNode detail = get("/api/v1/queries/" + id, 200);
        while (detail.get("state").asText().equals("RUNNING") && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            detail = get("/api/v1/queries/" + id, 200);
        }
        return detail;
    }

    private static long count(String sql) throws Exception {
        return Long.parseLong(duck.query(sql).get(0).get(0).toString());
    }

    private static JsonNode get(String path, int status) throws Exception {
        HttpResponse<String> response = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        return JSON.readTree(response.body());
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cluster.coordinator().httpPort() + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + cluster.authSecret());
    }
}
