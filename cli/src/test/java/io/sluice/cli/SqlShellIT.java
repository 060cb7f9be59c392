package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive {@code sluice sql --local 1} as a user meets it, typed into a pseudo-terminal that
 * tmux provides: a statement over several lines, Tab completing a table name, Ctrl-C cancelling a
 * long query while the shell and its cluster go on serving the next one, Ctrl-D leaving, and the
 * history recalled with the Up arrow in a new shell; and a shell on a coordinator process, where
 * Ctrl-C cancels the query on the coordinator and {@code exit;} leaves. Skipped, saying so, where tmux is not installed.
 * The test's tmux server, its sessions and every process in them are killed at the end.
 */
class SqlShellIT {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(120);
    /** Minutes of work: 3.6 billion pairs. */
    private static final String LONG_QUERY = "SELECT count(*) AS pairs FROM shell_numbers a, shell_numbers b WHERE a.k <> b.k;";
    private static final Pattern ANSWER = Pattern.compile("\\|\\s*42\\s*\\|");

    @TempDir
    static Path dir;
    private static Process server;
    private static Path socket;
    private static final List<ProcessHandle> started = new ArrayList<>();

    @BeforeAll
    static void startTmux() throws Exception {
        Assumptions.assumeTrue(tmuxInstalled(), "tmux is not installed: the shell test needs it for a pseudo-terminal "
                + "(apt-get install -y tmux)");
        Path numbers = Files.createDirectories(dir.resolve("numbers"));
        try (DuckDbOracle duck = new DuckDbOracle()) {
            duck.execute("COPY (SELECT range AS k FROM range(0, 60000)) TO '" + numbers.resolve("part-0.parquet")
                    + "' (FORMAT PARQUET)");
        }
        socket = dir.resolve("tmux.sock");
        Path config = Files.writeString(dir.resolve("tmux.conf"), "");
        // a foreground server (-D): tmux's daemon() fails where /dev/null is no device, as in some containers
        server = new ProcessBuilder("tmux", "-S", socket.toString(), "-f", config.toString(), "-D")
                .redirectErrorStream(true).redirectOutput(dir.resolve("tmux-server.log").toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!Files.exists(socket) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(socket).as("the tmux server's socket").exists();
    }

    @AfterAll
    static void stopTmux() throws Exception {
        if (server == null) {
            return;
        }
        tmux("kill-server");
        for (ProcessHandle p : started) {
            p.destroyForcibly();
        }
        server.destroyForcibly();
        server.waitFor(10, TimeUnit.SECONDS);
    }

    @Test
    void multiLineCompletionCancelAndHistoryAcrossRestarts() throws Exception {
        Path history = dir.resolve("history");
        startShell("first", history, "--local 1");
        type("first", "CREATE EXTERNAL TABLE shell_numbers STORED AS PARQUET LOCATION '" + dir.resolve("numbers") + "';");
        awaitPrompts("first", 2);

        // one statement over four lines: Enter before the ';' continues it
        type("first", "SELECT count(*) AS n,");
        assertThat(await("first", screen -> screen.contains(continuation()))).endsWith(continuation());
        type("first", "  max(k) AS top");
        type("first", "FROM shell_numbers");
        type("first", ";");
        String screen = await("first", s -> s.contains("| 60000 | 59999 |"));
        assertThat(screen).contains("sluice> SELECT count(*) AS n,\n     ->   max(k) AS top\n     -> FROM shell_numbers\n     -> ;");
        assertThat(screen).containsPattern("\n1 row \\(\\d+\\.\\d\\d s\\)\n");

        // Tab completes the table's name (the only name starting so)
        keys("first", "-l", "SELECT count(*) AS again FROM shell_num");
        keys("first", "Tab");
        await("first", s -> s.contains("AS again FROM shell_numbers"));
        type("first", ";");
        await("first", s -> s.contains("| 60000 |") && s.indexOf("again") != s.lastIndexOf("again"));

        // Ctrl-C cancels the running query; the shell and its cluster run the next one
        type("first", LONG_QUERY);
        await("first", s -> s.contains("[Stage"));
        keys("first", "C-c");
        await("first", s -> s.contains("query cancelled ("));
        // Ctrl-C at the prompt drops what was typed
        keys("first", "-l", "SELECT typed by mistake");
        await("first", s -> s.endsWith("SELECT typed by mistake"));
        keys("first", "C-c");
        type("first", "SELECT 41 + 1 AS answer;");
        assertThat(await("first", s -> ANSWER.matcher(s).find())).doesNotContain("error:");

        keys("first", "C-d");
        await("first", s -> s.contains("shell exited with 0"));

        // a new shell recalls the history: Up brings back the last statement, Enter runs it again
        startShell("second", history, "--local 1");
        keys("second", "Up");
        await("second", s -> s.endsWith("sluice> SELECT 41 + 1 AS answer;"));
        keys("second", "Enter");
        await("second", s -> ANSWER.matcher(s).find());
        keys("second", "C-d");
        await("second", s -> s.contains("shell exited with 0"));
        assertThat(Files.readString(history, StandardCharsets.UTF_8))
                .as("the multi-line statement is one entry").contains("SELECT count(*) AS n,\\n  max(k) AS top\\nFROM shell_numbers\\n;");
    }

    private static String continuation() {
        return "     ->";
    }

    /** A shell on a coordinator process and a worker process: Ctrl-C cancels the query there, which serves the next. */
    @Test
    void remoteShellCancelsOnTheCoordinator() throws Exception {
        try (SluiceProcess coordinator = SluiceProcess.startCoordinator(dir, START_TIMEOUT);
                SluiceProcess worker = startWorker(coordinator.coordinatorPorts().cluster())) {
            int httpPort = coordinator.coordinatorPorts().http();
            startShell("remote", dir.resolve("remote-history"), "--coordinator 127.0.0.1:" + httpPort);
            type("remote", "CREATE EXTERNAL TABLE shell_numbers STORED AS PARQUET LOCATION '" + dir.resolve("numbers") + "';");
            awaitPrompts("remote", 2);
            type("remote", LONG_QUERY);
            await("remote", s -> s.contains("[Stage"));
            keys("remote", "C-c");
            await("remote", s -> s.contains("query cancelled ("));
            type("remote", "SELECT count(*) - 59958 AS answer FROM shell_numbers;");
            await("remote", s -> ANSWER.matcher(s).find());
            type("remote", "exit;");
            await("remote", s -> s.contains("shell exited with 0"));
            assertThat(worker.isAlive()).as("the worker").isTrue();
        }
    }

    private static SluiceProcess startWorker(int clusterPort) throws Exception {
        SluiceProcess worker = SluiceProcess.start(dir, "worker", "--coordinator", "127.0.0.1:" + clusterPort, "--id", "w1",
                "--slots", "2");
        worker.awaitStderrLine("worker ready:", START_TIMEOUT);
        return worker;
    }

    /** Starts {@code bin/sluice sql TARGET} in a new tmux session and waits for its prompt. */
    private static void startShell(String name, Path history, String target) throws Exception {
        String command = "env SLUICE_HISTORY=" + history + " SLUICE_LOG_DIR=" + dir + " SLUICE_CDS=off"
                + " SLUICE_AUTH_SECRET=" + SluiceProcess.SECRET + " SLUICE_JAVA_OPTS='" + SluiceProcess.JAVA_OPTS + "' "
                + SluiceProcess.repoRoot().resolve("bin/sluice") + " sql " + target
                + "; echo shell exited with $?; exec sleep 600";
        tmux("new-session", "-d", "-s", name, "-x", "160", "-y", "60", command);
        String pane = tmux("list-panes", "-t", name, "-F", "#{pane_pid}").strip();
        ProcessHandle.of(Long.parseLong(pane)).ifPresent(started::add);
        awaitPrompts(name, 1);
        // the JVM and anything else the pane's shell started
        ProcessHandle.of(Long.parseLong(pane)).ifPresent(p -> p.descendants().forEach(started::add));
    }

    /** Types {@code text} and Enter. */
    private static void type(String session, String text) throws Exception {
        // tmux reads an argument's trailing ';' as a command separator unless escaped
        String[] parts = text.split(";", -1);
        for (int i = 0; i < parts.length; i++) {
            if (!parts[i].isEmpty()) {
                keys(session, "-l", parts[i]);
            }
            if (i < parts.length - 1) {
                keys(session, "-l", "\\;");
            }
        }
        keys(session, "Enter");
    }

    private static void keys(String session, String... keys) throws Exception {
        List<String> args = new ArrayList<>(List.of("send-keys", "-t", session));
        args.addAll(List.of(keys));
        tmux(args.toArray(new String[0]));
    }

    /** Waits until {@code count} prompts were shown, the last one empty and waiting. */
    private static void awaitPrompts(String session, int count) throws Exception {
        await(session, s -> s.lines().filter(line -> line.startsWith("sluice>")).count() >= count && s.endsWith("\nsluice>"));
    }

    /** The screen (trailing blanks trimmed) once {@code done} holds; fails showing it after the time bound. */
    private static String await(String session, Predicate<String> done) throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.plus(QUERY_TIMEOUT).toNanos();
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = screen(session);
            if (done.test(screen)) {
                return screen;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the screen of '" + session + "' never showed what was awaited:\n" + screen);
    }

    private static String screen(String session) throws Exception {
        String text = tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session);
        List<String> lines = new ArrayList<>(text.lines().map(String::stripTrailing).toList());
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return String.join("\n", lines);
    }

    private static String tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux", "-S", socket.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tmux " + String.join(" ", args) + " hangs");
        }
        if (p.exitValue() != 0 && !args[0].equals("kill-server")) {
            throw new AssertionError("tmux " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }

    private static boolean tmuxInstalled() {
        try {
            Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
