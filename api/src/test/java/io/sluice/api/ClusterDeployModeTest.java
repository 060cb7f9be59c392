package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.coordinator.ClusterJobRunner;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.expr.UserFunction;
import io.sluice.testfixtures.DuckDbOracle;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice submit --deploy-mode cluster} against an embedded cluster's HTTP port: a jar built
 * here (its classes exist nowhere else, so the workers can only have them from the jar) runs on the
 * coordinator with {@code Session.create()} bound to it, and its user functions run on the workers
 * in the map stage of an aggregation and in the result stage; the answer is DuckDB's.
 */
class ClusterDeployModeTest {
    @TempDir
    static Path dir;
    private static Session session;
    private static Path jar;
    private static Path csv;
    private static SluiceException notAllowed;
    private static final int MAX_JAR_BYTES = 256 * 1024;

    @BeforeAll
    static void start() throws Exception {
        session = Session.local(LocalCluster.Options.of(2).withHttpPort(0).withShufflePartitions(3));
        LocalCluster cluster = session.localCluster();
        // job jars are off unless allowed: the jar is refused unread
        notAllowed = assertThrows(SluiceException.class, () -> JobSubmitter.submit("127.0.0.1",
                cluster.coordinator().httpPort(), cluster.authSecret(), Files.write(dir.resolve("any.jar"), new byte[10]),
                null, List.of()));
        System.setProperty("sluice.coordinator.job-jar.max-bytes", MAX_JAR_BYTES + "b");
        try {
            cluster.allowJobJars();
        } finally {
            System.clearProperty("sluice.coordinator.job-jar.max-bytes");
        }
        csv = dir.resolve("people.csv");
        StringBuilder rows = new StringBuilder("name,n\n");
        String[] names = {"ann", "bob", "cy", "dee", "eve"};
        for (int i = 0; i < 5000; i++) {
            rows.append(names[i % 5]).append(i % 7).append(',').append(i).append('\n');
        }
        Files.writeString(csv, rows);
        jar = buildJar(dir.resolve("job"), Map.of(
                "udfjob/Shout.java", """
                        package udfjob;
                        public class Shout implements io.sluice.logical.expr.UserFunction {
                            public Object call(Object[] args) {
                                return args[0] == null ? null : ((String) args[0]).toUpperCase() + "!";
                            }
                        }
                        """,
                "udfjob/Triple.java", """
                        package udfjob;
                        public class Triple implements io.sluice.logical.expr.UserFunction {
                            public Object call(Object[] args) {
                                return args[0] == null ? null : 3 * (Long) args[0];
                            }
                        }
                        """,
                "udfjob/Sleeper.java", """
                        package udfjob;
                        public class Sleeper {
                            public static void main(String[] args) throws Exception {
                                Thread.sleep(600_000);
                            }
                        }
                        """,
                "udfjob/Main.java", """
                        package udfjob;
                        import static io.sluice.api.Functions.*;
                        import io.sluice.api.Session;
                        import io.sluice.common.types.DataType;
                        public class Main {
                            public static void main(String[] args) {
                                if (args.length > 1) {
                                    throw new IllegalStateException("asked to fail: " + args[1]);
                                }
                                try (Session session = Session.create()) {
                                    var people = session.read().csv(args[0]);
                                    var loud = people.select(udf(Shout.class, DataType.UTF8, col("name")).as("loud"),
                                            udf(Triple.class, DataType.INT64, col("n")).as("t"));
                                    var result = loud.groupBy("loud").agg(count(col("t")).as("c"), sum(col("t")).as("s"))
                                            .orderBy("loud").collect();
                                    for (var row : result.rows()) {
                                        System.out.println(row.get(0) + "," + row.get(1) + "," + row.get(2));
                                    }
                                }
                            }
                        }
                        """));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        ClusterTesting.closeCheckingLeaks(session);
    }

    @Test
    void aJobJarWithUserFunctionsRunsOnTheCoordinatorAndItsWorkers() throws Exception {
        LocalCluster cluster = session.localCluster();
        assertThatThrownBy(() -> Class.forName("udfjob.Shout")).as("the job's classes are only in its jar")
                .isInstanceOf(ClassNotFoundException.class);
        ClusterJobRunner.Outcome outcome = JobSubmitter.submit("127.0.0.1", cluster.coordinator().httpPort(),
                cluster.authSecret(), jar, null, List.of(csv.toString()));
        assertThat(outcome.error()).isNull();
        assertThat(outcome.exitCode()).isZero();
        List<String> expected = new ArrayList<>();
        try (DuckDbOracle duck = new DuckDbOracle()) {
            for (List<Object> row : duck.queryRaw("SELECT upper(name) || '!' AS loud, count(*), sum(3 * n) FROM read_csv_auto('"
                    + csv + "') GROUP BY loud ORDER BY loud")) {
                expected.add(row.get(0) + "," + row.get(1) + "," + row.get(2));
            }
        }
        assertThat(expected).hasSize(35);
        assertThat(outcome.output().lines().toList()).isEqualTo(expected);
    }

    @Test
    void aFailingJobReturnsItsErrorAndTheNextJobRuns() {
        LocalCluster cluster = session.localCluster();
        ClusterJobRunner.Outcome failed = JobSubmitter.submit("127.0.0.1", cluster.coordinator().httpPort(),
                cluster.authSecret(), jar, "udfjob.Main", List.of(csv.toString(), "on purpose"));
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.error()).contains("asked to fail: on purpose");
        assertThatThrownBy(() -> JobSubmitter.submit("127.0.0.1", cluster.coordinator().httpPort(), "wrong", jar, null,
                List.of(csv.toString()))).isInstanceOf(SluiceException.class).hasMessageContaining("unauthorized");
        ClusterJobRunner.Outcome next = JobSubmitter.submit("127.0.0.1", cluster.coordinator().httpPort(),
                cluster.authSecret(), jar, null, List.of(csv.toString()));
        assertThat(next.exitCode()).isZero();
        assertThat(next.output().lines().count()).isEqualTo(35);
    }

    @Test
    void jobJarsAreOffUnlessAllowed() {
        assertThat(notAllowed).hasMessage("this coordinator does not run submitted jobs: start it with "
                + "--allow-job-jars (-Dsluice.coordinator.allow-job-jars=true)");
    }

    @Test
    void aJarOverTheLimitIsRefusedAndTheNextJobRuns() throws Exception {
        LocalCluster cluster = session.localCluster();
        // refused from its Content-Length, before it is sent; a reset may overtake the answer: up to 3 tries
        String status = null;
        for (int attempt = 0; attempt < 3 && status == null; attempt++) {
            try (Socket socket = new Socket("127.0.0.1", cluster.coordinator().httpPort())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(("POST /v1/submit HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + cluster.authSecret() + "\r\nContent-Length: " + (MAX_JAR_BYTES + 1) + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            } catch (java.net.SocketException reset) {
                status = null;
            }
        }
        assertThat(status).isEqualTo("HTTP/1.1 413");
        assertThat(JobSubmitter.submit("127.0.0.1", cluster.coordinator().httpPort(), cluster.authSecret(), jar, null,
                List.of(csv.toString())).exitCode()).isZero();
    }

    @Test
    void aJobPastItsTimeoutIsInterrupted() throws Exception {
        LocalCluster cluster = session.localCluster();
        long start = System.nanoTime();
        HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + cluster.coordinator().httpPort() + "/v1/submit"))
                .header("Authorization", "Bearer " + cluster.authSecret())
                .header("X-Sluice-Main-Class", "udfjob.Sleeper").header("X-Sluice-Timeout-Seconds", "2")
                .POST(HttpRequest.BodyPublishers.ofFile(jar)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("X-Sluice-Exit-Code")).contains("1");
        assertThat(java.net.URLDecoder.decode(answer.headers().firstValue("X-Sluice-Error").orElseThrow(),
                StandardCharsets.UTF_8)).isEqualTo("job udfjob.Sleeper timed out after 2 s "
                        + "(sluice.coordinator.job-jar.timeout); interrupted");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(jobThreads()).isZero();
    }

    @Test
    void aJobWhoseClientDisconnectsIsCancelled() throws Exception {
        LocalCluster cluster = session.localCluster();
        byte[] bytes = Files.readAllBytes(jar);
        try (Socket socket = new Socket("127.0.0.1", cluster.coordinator().httpPort())) {
            socket.getOutputStream().write(("POST /v1/submit HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                    + cluster.authSecret() + "\r\nX-Sluice-Main-Class: udfjob.Sleeper\r\nContent-Length: "
                    + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(bytes);
            awaitUntil(() -> jobThreads() == 1);
        }
        awaitUntil(() -> jobThreads() == 0);
    }

    /** Threads running submitted jobs now. */
    private static long jobThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sluice-cluster-job-")).count();
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition met within 30 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** Compiles the sources against Sluice's API and packs them as a jar whose Main-Class is udfjob.Main. */
    static Path buildJar(Path work, java.util.Map<String, String> sources) throws Exception {
        Path src = work.resolve("src");
        Path classes = work.resolve("classes");
        Files.createDirectories(classes);
        // the modules whose classes the job names or sees in signatures: api, logical (UserFunction),
        // common (DataType), kernels (QueryResult)
        List<String> classPath = new ArrayList<>();
        for (Class<?> type : List.of(Session.class, UserFunction.class, DataType.class, QueryResult.class)) {
            classPath.add(codeSource(type));
        }
        List<String> arguments = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
                String.join(java.io.File.pathSeparator, classPath)));
        for (var e : sources.entrySet()) {
            Path file = src.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
            arguments.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, arguments.toArray(new String[0]))).as("javac").isZero();
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "udfjob.Main");
        Path jarFile = work.resolve("job.jar");
        try (OutputStream out = Files.newOutputStream(jarFile); JarOutputStream jarOut = new JarOutputStream(out, manifest);
                Stream<Path> files = Files.walk(classes)) {
            for (Path c : files.filter(Files::isRegularFile).toList()) {
                jarOut.putNextEntry(new JarEntry(classes.relativize(c).toString().replace('\\', '/')));
                jarOut.write(Files.readAllBytes(c));
                jarOut.closeEntry();
            }
        }
        return jarFile;
    }

    private static String codeSource(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
