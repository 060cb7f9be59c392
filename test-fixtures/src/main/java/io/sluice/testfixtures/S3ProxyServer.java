package io.sluice.testfixtures;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An S3-compatible server on 127.0.0.1 for tests and benchmarks: S3Proxy's jar (Maven's
 * {@code org.gaul:s3proxy:2.6.0:jar-with-dependencies}) run as a process over its filesystem
 * backend, where each subdirectory of {@code baseDir} is a bucket and each file below it an object
 * (so files copied there are readable as objects). With an identity and credential it checks AWS
 * v2/v4 signatures; without, it accepts any request. {@link #close} stops the process.
 */
public final class S3ProxyServer implements AutoCloseable {
    /** The system property naming the jar; else it is looked up in the local Maven repository. */
    public static final String JAR_PROPERTY = "sluice.test.s3proxy.jar";
    public static final String REGION = "us-east-1";
    /** The line Jetty logs once S3Proxy listens, naming the port it bound. */
    private static final Pattern STARTED = Pattern.compile("Started ServerConnector@\\S*\\{[^}]*\\}\\{127\\.0\\.0\\.1:(\\d+)\\}");

    private final Process process;
    private final int port;
    private final Path log;

    private S3ProxyServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts a server over {@code baseDir} (created if missing); {@code identity} null for no
     * authentication. Returns once it accepts connections (at most 60 s). It binds a port of its
     * choosing (0), read from its log, so no other process can take the port between a choice and
     * the bind.
     */
    public static S3ProxyServer start(Path baseDir, String identity, String credential) throws IOException {
        Files.createDirectories(baseDir);
        Map<String, String> properties = new TreeMap<>();
        properties.put("s3proxy.endpoint", "http://127.0.0.1:0");
        properties.put("jclouds.provider", "filesystem");
        properties.put("jclouds.filesystem.basedir", baseDir.toAbsolutePath().toString());
        if (identity == null) {
            properties.put("s3proxy.authorization", "none");
        } else {
            properties.put("s3proxy.authorization", "aws-v2-or-v4");
            properties.put("s3proxy.identity", identity);
            properties.put("s3proxy.credential", requireNonNull(credential, "credential is null"));
        }
        Path config = Files.createTempFile("s3proxy", ".properties");
        Path log = Files.createTempFile("s3proxy", ".log");
        Process process = null;
        try {
            StringBuilder text = new StringBuilder();
            properties.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
            Files.writeString(config, text);
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-Xmx512m");
            command.add("-jar");
            command.add(jar().toString());
            command.add("--properties");
            command.add(config.toString());
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            S3ProxyServer server = new S3ProxyServer(process, awaitPort(process, log), log);
            Files.deleteIfExists(config); // read at the start; the log stays for log()
            return server;
        } catch (IOException | RuntimeException e) {
            if (process != null) {
                stop(process);
            }
            Files.deleteIfExists(config);
            Files.deleteIfExists(log);
            throw e;
        }
    }

    /** The port S3Proxy's Jetty connector names in its log once it listens; fails if it exits first or takes over 60 s. */
    private static int awaitPort(Process process, Path log) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            // ISO-8859-1 reads any bytes: a half-written character cannot fail the wait
            String output = new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1);
            Matcher started = STARTED.matcher(output);
            if (started.find()) {
                int port = Integer.parseInt(started.group(1));
                if (accepting(port)) {
                    return port;
                }
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("S3Proxy did not start: " + output);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting S3Proxy", e);
            }
        }
    }

    /** The jar: {@value #JAR_PROPERTY}, else the local Maven repository's copy. */
    private static Path jar() throws IOException {
        String configured = System.getProperty(JAR_PROPERTY);
        Path jar = configured != null ? Path.of(configured) : Path.of(System.getProperty("user.home"), ".m2",
                "repository", "org", "gaul", "s3proxy", "2.6.0", "s3proxy-2.6.0-jar-with-dependencies.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IOException("no S3Proxy jar at " + jar + " (resolve org.gaul:s3proxy:2.6.0:jar:jar-with-dependencies"
                    + " or set -D" + JAR_PROPERTY + ")");
        }
        return jar;
    }

    private static boolean accepting(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public int port() {
        return port;
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /**
     * The Hadoop settings ({@code sluice.hadoop.*}) that point S3A at this server with path-style
     * access, these credentials, and short retries.
     */
    public Map<String, String> hadoopSettings(String accessKey, String secretKey) {
        Map<String, String> out = new TreeMap<>();
        String p = "sluice.hadoop.";
        out.put(p + "fs.s3a.endpoint", endpoint());
        out.put(p + "fs.s3a.endpoint.region", REGION);
        out.put(p + "fs.s3a.path.style.access", "true");
        out.put(p + "fs.s3a.connection.ssl.enabled", "false");
        out.put(p + "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
        out.put(p + "fs.s3a.access.key", accessKey);
        out.put(p + "fs.s3a.secret.key", secretKey);
        out.put(p + "fs.s3a.change.detection.version.required", "false");
        out.put(p + "fs.s3a.attempts.maximum", "1");
        out.put(p + "fs.s3a.retry.limit", "1");
        out.put(p + "fs.s3a.retry.interval", "10ms");
        out.put(p + "fs.s3a.retry.throttle.limit", "1");
        out.put(p + "fs.s3a.connection.establish.timeout", "2s");
        out.put(p + "fs.s3a.connection.timeout", "20s");
        return out;
    }

    /** What the server printed (for a failing test's message). */
    public String log() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() {
        stop(process);
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
