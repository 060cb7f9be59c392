package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.testfixtures.S3ProxyServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/sluice sql --local} on an S3-compatible server (S3Proxy on 127.0.0.1, checking
 * signatures), configured each way a user configures Hadoop: {@code --conf sluice.hadoop.*}, a
 * {@code core-site.xml} in {@code HADOOP_CONF_DIR}, one in a jar given with {@code --jars}, one in
 * a directory on {@code SLUICE_CLASSPATH}. Credentials never show in the output.
 */
class ObjectStoreCliIT {
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);
    private static final String ACCESS_KEY = "cli-access";
    private static final String SECRET_KEY = "cli-secret-5e0b2";
    private static final String QUERY = "SELECT count(*) AS n, sum(v) AS s FROM t";

    @TempDir
    static Path dir;

    private static S3ProxyServer server;
    private static DuckDbOracle duck;
    private static Map<String, String> settings;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        Path table = Files.createDirectories(dir.resolve("buckets/lake/t"));
        duck.writeParquet("SELECT range AS id, range % 13 AS v FROM range(5000)", table.resolve("part-0.parquet"), 1000);
        server = S3ProxyServer.start(dir.resolve("buckets"), ACCESS_KEY, SECRET_KEY);
        settings = server.hadoopSettings(ACCESS_KEY, SECRET_KEY);
    }

    @AfterAll
    static void stop() throws Exception {
        try (DuckDbOracle d = duck; S3ProxyServer s = server) {
            // closes both
        }
    }

    @Test
    void hadoopSettingsAsConfFlags() throws Exception {
        assertAnswers(run(Map.of(), confFlags(SECRET_KEY)));
    }

    @Test
    void coreSiteFromHadoopConfDir() throws Exception {
        assertAnswers(run(Map.of("HADOOP_CONF_DIR", siteDirectory("hadoop-conf").toString()), List.of()));
    }

    @Test
    void coreSiteFromSluiceClasspath() throws Exception {
        assertAnswers(run(Map.of("SLUICE_CLASSPATH", siteDirectory("extra-classpath").toString()), List.of()));
    }

    @Test
    void coreSiteFromAJarGivenWithJars() throws Exception {
        Path jar = dir.resolve("site.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("core-site.xml"));
            out.write(coreSite().getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        assertAnswers(run(Map.of(), List.of("--jars", jar.toString())));
    }

    @Test
    void wrongCredentialsFailNamingThePathWithoutPrintingThem() throws Exception {
        SluiceProcess.Result result = run(Map.of(), confFlags("wrong-" + SECRET_KEY));
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stderr()).contains("error:").contains("s3a://lake/t").doesNotContain(SECRET_KEY);
        assertThat(result.stdout()).isEmpty();
    }

    /** The server's settings as {@code --conf} flags, with this secret key. */
    private static List<String> confFlags(String secretKey) {
        List<String> args = new ArrayList<>();
        settings.forEach((name, value) -> {
            args.add("--conf");
            args.add(name + "=" + (name.endsWith(".secret.key") ? secretKey : value));
        });
        return args;
    }

    private static Path siteDirectory(String name) throws IOException {
        Path site = Files.createDirectories(dir.resolve(name));
        Files.writeString(site.resolve("core-site.xml"), coreSite());
        return site;
    }

    /** {@code bin/sluice sql --local=1 EXTRA... -e SCRIPT}; bin/sluice takes {@code --jars} out wherever it stands. */
    private static SluiceProcess.Result run(Map<String, String> environment, List<String> extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("sql", "--local=1", "--format", "csv"));
        args.addAll(extra);
        args.addAll(List.of("-e", "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION 's3a://lake/t'; " + QUERY));
        try (SluiceProcess p = SluiceProcess.start(dir, "", environment, args.toArray(String[]::new))) {
            return p.await(RUN_TIMEOUT);
        }
    }

    private static void assertAnswers(SluiceProcess.Result result) throws Exception {
        assertThat(result.exitCode()).as("exit code; stderr:\n%s", result.stderr()).isZero();
        DuckDbAnswer.assertSame(duck, QUERY.replace("FROM t", "FROM read_parquet('" + dir.resolve("buckets/lake/t")
                + "/*.parquet')"), result.stdout());
        assertThat(result.stdout() + result.stderr()).doesNotContain(SECRET_KEY);
    }

    private static String coreSite() {
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        settings.forEach((name, value) -> out.append("  <property><name>").append(name.substring("sluice.hadoop.".length()))
                .append("</name><value>").append(value).append("</value></property>\n"));
        return out.append("</configuration>\n").toString();
    }
}
