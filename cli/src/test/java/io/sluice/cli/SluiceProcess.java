package io.sluice.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code bin/sluice} process. Its stdout and stderr go to files (no pipe can fill up and stall
 * it); {@link #close} stops it with SIGTERM and, if it lingers, kills it.
 */
final class SluiceProcess implements AutoCloseable {
    /** Small heaps and a cheap JIT: several JVMs share two cores in these tests. */
    static final String JAVA_OPTS = "-Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    private static final AtomicInteger COUNTER = new AtomicInteger();
    /** This test JVM's cluster secret, given to every process it starts. */
    static final String SECRET = randomSecret();
    /** A coordinator's ready line: its cluster port, then its HTTP(S) port. */
    private static final Pattern COORDINATOR_READY =
            Pattern.compile("^coordinator ready: cluster pekko://sluice@[^,]+:(\\d+), https? [^,]+:(\\d+)");
    /** A worker's ready line (its id may hold spaces): its cluster port, then its shuffle port. */
    private static final Pattern WORKER_READY =
            Pattern.compile("^worker ready: .+ on \\S+:(\\d+) joined \\S+, shuffle \\S+:(\\d+), \\d+ slots$");

    private static String randomSecret() {
        byte[] bytes = new byte[16];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.HexFormat.of().formatHex(bytes);
    }

    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private final String description;

    private SluiceProcess(Process process, Path stdout, Path stderr, String description) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.description = description;
    }

    /** What a finished process left behind. */
    record Result(int exitCode, String stdout, String stderr) {
        List<String> stderrLines() {
            return stderr.lines().toList();
        }
    }

    /** Starts {@code bin/sluice args...} with its output files in {@code logDir}. */
    static SluiceProcess start(Path logDir, String... args) throws IOException {
        return startWithJavaOptions(logDir, "", args);
    }

    /** Like {@link #start}, with extra JVM options (system properties, for example) for this process. */
    static SluiceProcess startWithJavaOptions(Path logDir, String javaOptions, String... args) throws IOException {
        return start(logDir, javaOptions, java.util.Map.of(), args);
    }

    /** Like {@link #startWithJavaOptions}, with these environment variables set too; stdin is empty. */
    static SluiceProcess start(Path logDir, String javaOptions, java.util.Map<String, String> environment, String... args)
            throws IOException {
        return start(logDir, javaOptions, environment, null, args);
    }

    /**
     * Like {@link #start(Path, String, java.util.Map, String...)}, reading {@code stdin} (a file; null:
     * an empty one, so that a command reading its input ends rather than waiting on this JVM's pipe).
     */
    static SluiceProcess start(Path logDir, String javaOptions, java.util.Map<String, String> environment, Path stdin,
            String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(repoRoot().resolve("bin/sluice").toString());
        command.addAll(List.of(args));
        boolean runsCoordinator = args.length > 0 && (args[0].equals("coordinator") || args[0].equals("local"));
        if (runsCoordinator && !List.of(args).contains("--connect-port")) {
            // Spark Connect's fixed default port would be shared by every coordinator a test run starts
            command.addAll(List.of("--connect-port", "0"));
        }
        int n = COUNTER.incrementAndGet();
        Path out = logDir.resolve("process-" + n + ".out");
        Path err = logDir.resolve("process-" + n + ".err");
        Path input = stdin != null ? stdin : Files.write(logDir.resolve("process-" + n + ".in"), new byte[0]);
        ProcessBuilder builder = new ProcessBuilder(command).directory(logDir.toFile())
                .redirectInput(input.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("SLUICE_JAVA_OPTS", (JAVA_OPTS + " " + javaOptions).trim());
        // every process of a test run proves the same secret, as a real cluster's nodes and clients do
        builder.environment().put("SLUICE_AUTH_SECRET", SECRET);
        // node log files beside the process's output, not in the source tree; no class data sharing
        // archive, whose first run (writing it) takes longer than these tests' time bounds allow for
        builder.environment().put("SLUICE_LOG_DIR", logDir.toString());
        builder.environment().put("SLUICE_CDS", "off");
        builder.environment().putAll(environment);
        return new SluiceProcess(builder.start(), out, err, String.join(" ", args));
    }

    /** Runs {@code bin/sluice args...} to the end; a process still running after {@code timeout} fails the test. */
    static Result run(Path logDir, Duration timeout, String... args) throws Exception {
        try (SluiceProcess p = start(logDir, args)) {
            return p.await(timeout);
        }
    }

    /** Runs {@code bin/sluice args...} reading {@code stdin} to the end; a process still running after {@code timeout} fails the test. */
    static Result runWithInput(Path logDir, Duration timeout, Path stdin, String... args) throws Exception {
        try (SluiceProcess p = start(logDir, "", java.util.Map.of(), stdin, args)) {
            return p.await(timeout);
        }
    }

    /** The repository root: the first directory up from here that holds {@code bin/sluice}. */
    static Path repoRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve("bin/sluice"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no bin/sluice above " + Path.of("").toAbsolutePath());
    }

    Result await(Duration timeout) throws Exception {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("'sluice " + description + "' still runs after " + timeout + "; stderr:\n" + stderr()
                    + "\nits threads:\n" + threadDump());
        }
        return new Result(process.exitValue(), read(stdout), stderr());
    }

    /** The process's threads as {@code jcmd Thread.print} shows them (bounded), to tell what it waits on. */
    private String threadDump() {
        try {
            Process jcmd = new ProcessBuilder("jcmd", Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            byte[] out = jcmd.getInputStream().readNBytes(60_000);
            if (!jcmd.waitFor(10, TimeUnit.SECONDS)) {
                jcmd.destroyForcibly();
            }
            return new String(out, java.nio.charset.StandardCharsets.UTF_8);
        } catch (Exception e) {
            return "(no thread dump: " + e + ")";
        }
    }

    /** The ports a coordinator took, as its ready line names them. */
    record CoordinatorPorts(int cluster, int http) {
    }

    /**
     * Starts {@code bin/sluice coordinator} on ports it chooses ({@code --port 0 --http-port 0}, so
     * no other process can take them between a test's choice and the bind) and waits until it is ready.
     */
    static SluiceProcess startCoordinator(Path logDir, Duration timeout, String... extraArgs) throws Exception {
        List<String> args = new ArrayList<>(List.of("coordinator", "--port", "0", "--http-port", "0"));
        args.addAll(List.of(extraArgs));
        SluiceProcess coordinator = start(logDir, args.toArray(String[]::new));
        try {
            coordinator.awaitStderrMatch(COORDINATOR_READY, timeout);
            return coordinator;
        } catch (Throwable e) {
            coordinator.close();
            throw e;
        }
    }

    /** The cluster and HTTP ports of a coordinator that printed its ready line. */
    CoordinatorPorts coordinatorPorts() throws IOException {
        Matcher m = readyLine(COORDINATOR_READY);
        return new CoordinatorPorts(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** The ports a worker took, as its ready line names them. */
    record WorkerPorts(int cluster, int shuffle) {
    }

    /** The cluster and shuffle ports of a worker that printed its ready line. */
    WorkerPorts workerPorts() throws IOException {
        Matcher m = readyLine(WORKER_READY);
        return new WorkerPorts(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    private Matcher readyLine(Pattern pattern) throws IOException {
        for (String line : stderr().lines().toList()) {
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m;
            }
        }
        throw new AssertionError("'sluice " + description + "' printed no match of '" + pattern + "'; stderr:\n" + stderr());
    }

    /** Waits for a stderr line starting with {@code prefix}; fails if the process ends first or time runs out. */
    String awaitStderrLine(String prefix, Duration timeout) throws Exception {
        return awaitStderrMatch(Pattern.compile("^" + Pattern.quote(prefix)), timeout);
    }

    /** Waits for a stderr line containing a match of {@code pattern}; fails if the process ends first or time runs out. */
    String awaitStderrMatch(Pattern pattern, Duration timeout) throws Exception {
        return awaitStderrMatch(pattern, timeout, null);
    }

    /** As {@link #awaitStderrMatch(Pattern, Duration)}, giving up too once {@code other} has ended. */
    String awaitStderrMatch(Pattern pattern, Duration timeout, SluiceProcess other) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (other != null && !other.isAlive()) {
                throw new AssertionError("'sluice " + other.description + "' ended before '" + description
                        + "' printed a match of '" + pattern + "'; stderr:\n" + stderr());
            }
            for (String line : stderr().lines().toList()) {
                if (pattern.matcher(line).find()) {
                    return line;
                }
            }
            if (!process.isAlive()) {
                throw new AssertionError("'sluice " + description + "' exited with " + process.exitValue()
                        + " before printing a match of '" + pattern + "'; stderr:\n" + stderr());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("'sluice " + description + "' printed no match of '" + pattern + "' within " + timeout
                + "; stderr:\n" + stderr());
    }

    /** Kills the process at once (SIGKILL: no shutdown hooks, no goodbye to the cluster) and waits for it to end. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Sends SIGINT, as Ctrl-C in a terminal does (bin/sluice execs the JVM, so the signal reaches it). */
    void interrupt() throws Exception {
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -INT " + process.pid() + " failed");
        }
    }

    /**
     * Whether the process ignores SIGINT (Linux: its {@code SigIgn} mask in /proc). A process
     * started in the background of a non-interactive shell ignores it, and so does everything it
     * starts, down to this JVM's children: no Ctrl-C can reach them.
     */
    boolean ignoresInterrupts() throws IOException {
        Path status = Path.of("/proc", Long.toString(process.pid()), "status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Sends SIGTERM and waits up to {@code timeout} for the process to end; whether it did. */
    boolean terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    String stderr() throws IOException {
        return read(stderr);
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    @Override
    public void close() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
