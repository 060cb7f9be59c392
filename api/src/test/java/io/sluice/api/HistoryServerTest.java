package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.common.SluiceException;
import io.sluice.coordinator.HistoryServer;
import io.sluice.coordinator.monitor.MonitorSettings;
import io.sluice.testfixtures.DuckDbOracle;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event log and {@code sluice history}'s server: two queries run on an embedded cluster with
 * an event log; after the cluster stopped, the history server serves the same queries, stages and
 * tasks as the live coordinator did; a line that is not an event is skipped and reported with its
 * file and line, and a missing directory is an error naming it.
 */
class HistoryServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "history-test-secret";

    @TempDir
    Path data;

    @Test
    void historyServesTheQueriesTheLiveCoordinatorServedAfterItStopped() throws Exception {
        Path log = data.resolve("events");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        Map<String, String> live = new LinkedHashMap<>();
        List<String> queries = List.of("SELECT k, count(*) AS n FROM t GROUP BY k ORDER BY k",
                "SELECT count(DISTINCT v) AS d FROM t WHERE v > 100");
        System.setProperty(MonitorSettings.EVENT_LOG_DIR.name(), log.toString());
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withHttpPort(0))) {
            ClusterTesting.createKeyedCsvTable(duck, session, data);
            LocalCluster cluster = session.localCluster();
            String base = "http://127.0.0.1:" + cluster.coordinator().httpPort();
            for (String query : queries) {
                assertThat(DuckDbOracle.normalize(session.sql(query, "history"))).isEqualTo(duck.query(query));
            }
            for (String query : queries) {
                String id = idOf(http, base, cluster.authSecret(), query);
                JsonNode detail = awaitEnded(http, base, cluster.authSecret(), id);
                assertThat(detail.get("state").asText()).isEqualTo("FINISHED");
                live.put("/api/v1/queries/" + id, detail.toString());
                for (JsonNode stage : detail.get("stages")) {
                    String tasks = "/api/v1/queries/" + id + "/stages/" + stage.get("id").asInt() + "/tasks";
                    live.put(tasks, get(http, base, cluster.authSecret(), tasks, 200).toString());
                }
            }
        } finally {
            System.clearProperty(MonitorSettings.EVENT_LOG_DIR.name());
        }
        try (Stream<Path> files = Files.list(log)) {
            assertThat(files.filter(f -> f.toString().endsWith(".jsonl")).count()).isGreaterThanOrEqualTo(2);
        }

        try (HistoryServer history = HistoryServer.start(log, "127.0.0.1", 0, SECRET, 100)) {
            assertThat(history.replay().skipped()).isEmpty();
            String base = "http://127.0.0.1:" + history.httpPort();
            for (Map.Entry<String, String> e : live.entrySet()) {
                assertThat(get(http, base, SECRET, e.getKey(), 200).toString()).as(e.getKey()).isEqualTo(e.getValue());
            }
            JsonNode listed = get(http, base, SECRET, "/api/v1/queries", 200);
            for (String query : queries) {
                assertThat(listed.findValuesAsText("sql")).contains(query);
            }
            HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/queries"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(get(http, base, SECRET, "/api/v1/workers", 200)).isEmpty();
            assertThat(get(http, base, SECRET, "/api/v1/server", 200).get("kind").asText()).isEqualTo("history");
        }

        // a line that is not an event: reported with its file and line, the rest still served
        Path first;
        try (Stream<Path> files = Files.list(log)) {
            first = files.filter(f -> f.toString().endsWith(".jsonl")).sorted().findFirst().orElseThrow();
        }
        long lines = Files.readAllLines(first).size();
        Files.writeString(first, "{\"event\":\"QueryEnded\",\"queryId\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        try (HistoryServer history = HistoryServer.start(log, "127.0.0.1", 0, SECRET, 100)) {
            assertThat(history.replay().skipped()).singleElement().asString()
                    .contains(first.toString() + " line " + (lines + 1)).contains("not an event");
            String base = "http://127.0.0.1:" + history.httpPort();
            for (Map.Entry<String, String> e : live.entrySet()) {
                assertThat(get(http, base, SECRET, e.getKey(), 200).toString()).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
    }

    @Test
    void aMissingDirectoryIsAnErrorNamingIt() {
        Path missing = data.resolve("no-such-dir");
        assertThatThrownBy(() -> HistoryServer.start(missing, "127.0.0.1", 0, SECRET, 10))
                .isInstanceOf(SluiceException.class).hasMessageContaining(missing.toString());
    }

    private static String idOf(HttpClient http, String base, String secret, String sql) throws Exception {
        for (JsonNode q : get(http, base, secret, "/api/v1/queries", 200)) {
            if (sql.equals(q.get("sql").asText())) {
                return q.get("id").asText();
            }
        }
        throw new AssertionError("no query listed with the text " + sql);
    }

    private static JsonNode awaitEnded(HttpClient http, String base, String secret, String id) throws Exception {
        long deadline = System.currentTimeMillis() + 10_000;
        JsonNode detail = get(http, base, secret, "/api/v1/queries/" + id, 200);
        while (detail.get("state").asText().equals("RUNNING") && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            detail = get(http, base, secret, "/api/v1/queries/" + id, 200);
        }
        return detail;
    }

    private static JsonNode get(HttpClient http, String base, String secret, String path, int status) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + secret).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(status);
        return JSON.readTree(response.body());
    }
}
