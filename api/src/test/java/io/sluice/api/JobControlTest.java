package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.RunningQueries;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.worker.Worker;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running queries over the coordinator's HTTP API: {@code GET /v1/jobs} lists them, {@code POST
 * /v1/jobs/ID/cancel} cancels one, and a client that disconnects has its query cancelled; either
 * way the workers' slots are free and the query's shuffle files gone within 5 s.
 */
class JobControlTest {
    /** About a minute of work: 3.6 billion pairs. */
    private static final String LONG_QUERY = "SELECT count(*) AS pairs FROM t a, t b WHERE a.k <> b.k";

    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static Session session;
    private static LocalCluster cluster;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        session = Session.local(LocalCluster.Options.of(2).withHttpPort(0));
        cluster = session.localCluster();
        Path table = Files.createDirectories(data.resolve("t"));
        for (int f = 0; f < 4; f++) {
            duck.execute("COPY (SELECT range AS k FROM range(" + f * 15000 + ", " + (f + 1) * 15000 + ")) TO '"
                    + table.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
        }
        session.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + table + "'");
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    @Test
    void aListedQueryIsCancelledByItsId() throws Exception {
        CompletableFuture<HttpResponse<String>> query = http.sendAsync(request("/v1/sql")
                .POST(HttpRequest.BodyPublishers.ofString(LONG_QUERY)).build(), HttpResponse.BodyHandlers.ofString());
        String id = awaitListedQuery();
        assertThat(get("/v1/jobs").body()).contains("count(*) AS pairs").containsPattern(
                "\"stages\":\\[\\{\"stage\":\\d+,\"done\":\\d+,\"total\":\\d+}");

        HttpResponse<String> cancel = http.send(request("/v1/jobs/" + id + "/cancel")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(cancel.statusCode()).isEqualTo(200);
        HttpResponse<String> answer = query.get(10, TimeUnit.SECONDS);
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).contains("was cancelled").contains("POST /v1/jobs/" + id + "/cancel");
        assertQuiet();

        HttpResponse<String> again = http.send(request("/v1/jobs/" + id + "/cancel")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(again.body()).isEqualTo("no running query " + id);
        assertNextQueryIsRight();
    }

    @Test
    void aClientThatDisconnectsHasItsQueryCancelled() throws Exception {
        byte[] body = LONG_QUERY.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", cluster.coordinator().httpPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/sql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + cluster.authSecret()
                    + "\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            awaitListedQuery();
        }
        assertQuiet();
        assertNextQueryIsRight();
    }

    /** No query listed, no task on any worker and no shuffle directory, within 5 s. */
    private static void assertQuiet() throws Exception {
        long deadline = System.currentTimeMillis() + 5_000;
        // the coordinator counts a task as running until the worker's report of its end arrives
        while ((activeTasks() > 0 || ClusterTesting.shuffleEntries(cluster) > 0 || !get("/v1/jobs").body().equals("[]")
                || cluster.coordinator().load().runningTasks() > 0) && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(get("/v1/jobs").body()).isEqualTo("[]");
        assertThat(activeTasks()).as("tasks on the workers").isZero();
        assertThat(ClusterTesting.shuffleEntries(cluster)).as("shuffle directories on the workers").isZero();
        assertThat(cluster.coordinator().load().runningTasks()).isZero();
    }

    private static void assertNextQueryIsRight() throws Exception {
        assertThat(DuckDbOracle.normalize(session.sql("SELECT count(*) AS c FROM t WHERE k % 7 = 0").collect()))
                .isEqualTo(duck.query("SELECT count(*) AS c FROM range(0, 60000) r(k) WHERE k % 7 = 0"));
    }

    private static String awaitListedQuery() throws Exception {
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline) {
            List<RunningQueries.Info> listed = RunningQueries.fromJson(get("/v1/jobs").body());
            if (!listed.isEmpty() && activeTasks() > 0) {
                return listed.get(0).id();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the query was not listed as running: " + get("/v1/jobs").body());
    }

    private static int activeTasks() {
        return cluster.workers().stream().mapToInt(Worker::activeTasks).sum();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cluster.coordinator().httpPort() + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + cluster.authSecret());
    }
}
