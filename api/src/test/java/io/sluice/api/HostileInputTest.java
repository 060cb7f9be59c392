package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.wire.PlanJson;
import io.sluice.worker.Worker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile or careless client can send a running cluster: each is refused with a clean
 * error, and the cluster serves the next legitimate query.
 */
class HostileInputTest {
    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static Session session;
    private static HttpClient http;
    private static URI base;
    private static String secret;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        session = Session.local(LocalCluster.Options.of(2).withHttpPort(0).withAllowedRoots(List.of(data.toString())));
        ClusterTesting.createKeyedCsvTable(duck, session, data);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        base = URI.create("http://127.0.0.1:" + session.localCluster().coordinator().httpPort() + "/v1/");
        secret = session.localCluster().authSecret();
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    @Test
    void sqlNestedTenThousandDeepGetsACleanErrorAndTheNextQueryRuns() throws Exception {
        String deep = "SELECT " + "(".repeat(10_000) + "1" + ")".repeat(10_000);
        HttpResponse<String> reply = post("sql", deep.getBytes(StandardCharsets.UTF_8), secret);
        assertThat(reply.statusCode()).isEqualTo(400);
        assertThat(reply.body()).startsWith("query too complex");
        // without parentheses: a sum of 10,000 terms nests as deep
        String sum = "SELECT " + "v + ".repeat(10_000) + "1 FROM t";
        assertThatThrownBy(() -> session.sql(sum)).isInstanceOf(SluiceException.class).hasMessageStartingWith("query too complex");
        // just inside the limits, deep queries still plan, travel to the workers and run
        String nested = "SELECT " + "(".repeat(120) + "v" + " + 1)".repeat(120) + " AS x FROM t WHERE v = 0";
        assertThat(session.sql(nested).collect().rows()).containsExactly(List.of(120L));
        String longSum = "SELECT " + "v + ".repeat(200) + "1 AS x FROM t WHERE v = 1";
        assertThat(session.sql(longSum).collect().rows()).containsExactly(List.of(201L));
        assertLegitimateQueryWorks();
    }

    /** A request naming a class on the class path, in each form a client could try: 400, and the class stays unloaded. */
    @Test
    void noRequestLoadsAClassItNames() throws Exception {
        String name = "io.sluice.api.LoadTarget";
        for (String type : List.of(name, "LoadTarget")) {
            HttpResponse<String> json = post("plan", ("{\"version\":1,\"plan\":{\"@type\":\"" + type + "\"}}")
                    .getBytes(StandardCharsets.UTF_8), secret);
            assertThat(json.statusCode()).isEqualTo(400);
        }
        // Kryo's "class by name" form, as the old /v1/plan read it
        com.esotericsoftware.kryo.io.Output kryo = new com.esotericsoftware.kryo.io.Output(128);
        kryo.writeVarInt(1, true);
        kryo.writeVarInt(0, true);
        kryo.writeString(name);
        HttpResponse<String> bytes = post("plan", kryo.toBytes(), secret);
        assertThat(bytes.statusCode()).isEqualTo(400);
        assertThat(LoadTargetFlag.loaded).as("LoadTarget was loaded").isFalse();
    }

    @Test
    void oversizedSqlIsRefused() throws Exception {
        HttpResponse<String> reply = post("sql", ("SELECT 1 -- " + "x".repeat((1 << 20) + 10)).getBytes(StandardCharsets.UTF_8), secret);
        assertThat(reply.statusCode()).isEqualTo(400);
        assertThat(reply.body()).contains("exceeds the limit");
        // a body past 16 MiB is refused from its Content-Length, before it is sent; the server closes
        // right after its answer, and a reset may then overtake the answer on its way: up to 3 tries
        String status = null;
        for (int attempt = 0; attempt < 3 && status == null; attempt++) {
            try (Socket socket = new Socket("127.0.0.1", session.localCluster().coordinator().httpPort())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(("POST /v1/sql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + secret
                        + "\r\nContent-Length: " + (17 << 20) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            } catch (java.net.SocketException reset) {
                status = null;
            }
        }
        assertThat(status).isEqualTo("HTTP/1.1 413");
        assertLegitimateQueryWorks();
    }

    @Test
    void plansNamingClassesOrOtherVersionsAreRefused() throws Exception {
        for (String path : List.of("plan", "explain")) {
            HttpResponse<String> java = post(path, "{\"version\":1,\"plan\":{\"@type\":\"java.lang.ProcessBuilder\"}}"
                    .getBytes(StandardCharsets.UTF_8), secret);
            assertThat(java.statusCode()).isEqualTo(400);
            assertThat(java.body()).contains("is not a LogicalPlan");
            HttpResponse<String> version = post(path, "{\"version\":9,\"plan\":{}}".getBytes(StandardCharsets.UTF_8), secret);
            assertThat(version.statusCode()).isEqualTo(400);
            assertThat(version.body()).isEqualTo("unsupported plan version 9 (this coordinator reads version 1)");
            // what an old client sent: Kryo bytes naming a class; never read as Kryo any more
            byte[] kryo = {1, 0, (byte) 0x80 | 'x'};
            HttpResponse<String> bytes = post(path, kryo, secret);
            assertThat(bytes.statusCode()).isEqualTo(400);
            assertThat(bytes.body()).contains("not a JSON document");
        }
        assertLegitimateQueryWorks();
    }

    @Test
    void tablesOutsideTheAllowedRootsOrOverHttpAreRefusedWithoutReadingThem() throws Exception {
        for (String location : List.of("/etc/passwd", "file:///etc/passwd", data + "/../../etc/passwd")) {
            HttpResponse<String> reply = post("sql", ("CREATE EXTERNAL TABLE p STORED AS CSV LOCATION '" + location + "'")
                    .getBytes(StandardCharsets.UTF_8), secret);
            assertThat(reply.statusCode()).as(location).isEqualTo(400);
            assertThat(reply.body()).contains("is outside the allowed roots").doesNotContain("root:");
        }
        try (ServerSocket stub = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            stub.setSoTimeout(500);
            HttpResponse<String> reply = post("sql", ("CREATE EXTERNAL TABLE h STORED AS CSV LOCATION 'http://127.0.0.1:"
                    + stub.getLocalPort() + "/t.csv'").getBytes(StandardCharsets.UTF_8), secret);
            assertThat(reply.statusCode()).isEqualTo(400);
            assertThat(reply.body()).contains("uses scheme 'http', which this coordinator does not open");
            assertThatThrownBy(stub::accept).as("the stub saw no request").isInstanceOf(SocketTimeoutException.class);
        }
        // a client's plan naming a file directly is held to the same roots
        byte[] plan = PlanJson.encode(new TableScan(new TableSource("p", FileFormat.CSV, "/etc/passwd",
                Schema.of(new Field("line", DataType.UTF8)))));
        HttpResponse<String> reply = post("plan", plan, secret);
        assertThat(reply.statusCode()).isEqualTo(400);
        assertThat(reply.body()).contains("is outside the allowed roots");
        assertLegitimateQueryWorks();
    }

    @Test
    void oneClientCannotReplaceAnothersTable() throws Exception {
        int port = session.localCluster().coordinator().httpPort();
        Path other = data.resolve("other");
        java.nio.file.Files.createDirectories(other);
        duck.execute("COPY (SELECT 'x' AS k, 1 AS v) TO '" + other.resolve("o.csv") + "' (FORMAT CSV, HEADER)");
        try (Session alice = Session.connect("127.0.0.1", port, secret);
                Session bob = Session.connect("127.0.0.1", port, secret);
                Session admin = Session.connectShared("127.0.0.1", port, secret)) {
            alice.sql("CREATE EXTERNAL TABLE mine STORED AS CSV LOCATION '" + other + "'");
            assertThat(alice.sql("SELECT count(*) FROM mine").collect().rows()).containsExactly(List.of(1L));
            assertThatThrownBy(() -> bob.sql("SELECT count(*) FROM mine")).hasMessageContaining("unknown table 'mine'");
            // bob's 't' hides the shared 't' for bob only
            bob.sql("CREATE EXTERNAL TABLE t STORED AS CSV LOCATION '" + other + "'");
            assertThat(bob.sql("SELECT count(*) FROM t").collect().rows()).containsExactly(List.of(1L));
            assertThat(alice.sql("SELECT count(*) FROM t").collect().rows()).containsExactly(List.of(20_000L));
            admin.sql("CREATE EXTERNAL TABLE everyone STORED AS CSV LOCATION '" + other + "'");
            assertThat(alice.sql("SELECT count(*) FROM everyone").collect().rows()).containsExactly(List.of(1L));
            assertThat(bob.sql("SELECT count(*) FROM everyone").collect().rows()).containsExactly(List.of(1L));
        }
        assertLegitimateQueryWorks();
    }

    /**
     * A node holding the secret (so past TLS) but not registered as this worker's coordinator sends
     * it a task: the worker does not run it, and the cluster goes on.
     */
    @Test
    void aWorkerRunsCommandsOnlyFromTheCoordinatorItRegisteredWith() throws Exception {
        Worker victim = session.localCluster().workers().get(0);
        io.sluice.cluster.NodeConfig node = io.sluice.cluster.NodeConfig.worker("127.0.0.1", 0,
                session.localCluster().coordinator().clusterAddress()).withSecret(secret);
        java.util.concurrent.BlockingQueue<Object> replies = new java.util.concurrent.LinkedBlockingQueue<>();
        org.apache.pekko.actor.typed.ActorSystem<io.sluice.cluster.protocol.CoordinatorCommand> insider =
                io.sluice.cluster.SluiceNode.start(org.apache.pekko.actor.typed.javadsl.Behaviors.receive(
                        io.sluice.cluster.protocol.CoordinatorCommand.class).onAnyMessage(m -> {
                            replies.add(m);
                            return org.apache.pekko.actor.typed.javadsl.Behaviors.same();
                        }).build(), node);
        try {
            String workerPath = "pekko://sluice@127.0.0.1:" + victim.clusterPort() + "/user";
            // the path names the live worker actor: the insider's messages do reach it
            org.apache.pekko.actor.ActorRef classic = org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(insider)
                    .actorSelection(workerPath).resolveOne(Duration.ofSeconds(20)).toCompletableFuture()
                    .get(30, java.util.concurrent.TimeUnit.SECONDS);
            org.apache.pekko.actor.typed.ActorRef<io.sluice.cluster.protocol.WorkerCommand> target =
                    org.apache.pekko.actor.typed.javadsl.Adapter.toTyped(classic);
            byte[] plan = io.sluice.cluster.serialization.Kryos.serialize(new io.sluice.operators.basic.EmptyExec(
                    Schema.of(new Field("x", DataType.INT64))));
            for (int i = 0; i < 20 && replies.isEmpty(); i++) {
                target.tell(new io.sluice.cluster.protocol.RunTask(new io.sluice.cluster.protocol.TaskDescription(
                        "evil", "evil-" + i, 0, 0, 0, plan), insider, "0".repeat(32)));
                target.tell(new io.sluice.cluster.protocol.RemoveShuffles(List.of("job1-s0"), "0".repeat(32)));
                Thread.sleep(250);
            }
            assertThat(replies).as("no task report came back").isEmpty();
        } finally {
            io.sluice.cluster.SluiceNode.terminate(insider, Duration.ofSeconds(20));
        }
        assertLegitimateQueryWorks();
    }

    @Test
    void everyQueryRouteRefusesAMissingOrWrongSecret() throws Exception {
        for (String path : List.of("sql", "plan", "explain")) {
            assertThat(post(path, "SELECT 1".getBytes(StandardCharsets.UTF_8), null).statusCode()).as(path).isEqualTo(401);
            assertThat(post(path, "SELECT 1".getBytes(StandardCharsets.UTF_8), secret + "0").statusCode()).as(path)
                    .isEqualTo(401);
        }
    }

    /** Random and mutated bytes at the HTTP port and at every shuffle port, for a bounded time. */
    @Test
    void fuzzedFramesAtEachPortLeaveTheClusterServing() throws Exception {
        assertLegitimateQueryWorks();
        Random random = new Random(7);
        byte[] request = ("POST /v1/sql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + secret
                + "\r\nContent-Length: 8\r\n\r\nSELECT 1").getBytes(StandardCharsets.US_ASCII);
        List<Integer> ports = new java.util.ArrayList<>();
        ports.add(session.localCluster().coordinator().httpPort());
        for (Worker w : session.localCluster().workers()) {
            ports.add(w.shuffleServer().port());
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        int frames = 0;
        while (System.nanoTime() < deadline) {
            int port = ports.get(random.nextInt(ports.size()));
            byte[] frame = random.nextBoolean() ? randomBytes(random) : mutate(request, random);
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(200);
                OutputStream out = socket.getOutputStream();
                out.write(frame);
                out.flush();
                InputStream in = socket.getInputStream();
                in.read(new byte[512]);
            } catch (IOException expected) {
                // a closed or silent connection is a fine answer to garbage
            }
            frames++;
        }
        assertThat(frames).isGreaterThan(10);
        assertLegitimateQueryWorks();
        ClusterTesting.awaitNoLeakedBuffers(session);
    }

    private static void assertLegitimateQueryWorks() throws Exception {
        assertThat(DuckDbOracle.normalize(session.sql("SELECT k, count(*) AS c FROM t GROUP BY k ORDER BY k").collect()))
                .isEqualTo(duck.query("SELECT k, count(*) AS c FROM t GROUP BY k ORDER BY k"));
        HttpResponse<String> overHttp = post("sql", "SELECT count(*) FROM t".getBytes(StandardCharsets.UTF_8), secret);
        assertThat(overHttp.statusCode()).isEqualTo(200);
    }

    private static HttpResponse<String> post(String path, byte[] body, String token) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[1 + random.nextInt(256)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] mutate(byte[] valid, Random random) {
        byte[] bytes = valid.clone();
        for (int i = 0; i < 1 + random.nextInt(6); i++) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        return bytes;
    }
}
