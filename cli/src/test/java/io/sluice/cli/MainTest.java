package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** Argument handling without starting any node: exit codes and the one-line error format. */
class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** As {@link Main#main} runs a command line: with only the command it names, if any. */
    private int run(String... args) {
        return Main.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                args).execute(args);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void usageErrorsAreOneLineWithExitCodeTwo() {
        assertThat(run("sql", "-e", "SELECT 1")).isEqualTo(2);
        assertThat(err()).startsWith("error: Missing required argument").contains("--local").endsWith("(see 'sluice sql --help')\n")
                .hasLineCount(1);
        assertThat(out.size()).isZero();
    }

    @Test
    void noCommandIsAUsageError() {
        assertThat(run()).isEqualTo(2);
        assertThat(err()).startsWith("error: missing command");
    }

    @Test
    void badOptionValuesNameTheOption() {
        assertThat(run("sql", "--local", "2", "-e", "x", "--format", "xml")).isEqualTo(2);
        assertThat(err()).contains("--format").contains("xml");
        err.reset();
        assertThat(run("worker", "--coordinator", "nohost")).isEqualTo(2);
        assertThat(err()).contains("--coordinator").contains("nohost");
        err.reset();
        assertThat(run("coordinator", "--port", "70000")).isEqualTo(2);
        assertThat(err()).contains("--port must be between 0 and 65535: 70000");
        err.reset();
        // an option that sets a setting is held to the setting's declared bounds, before anything starts
        assertThat(run("coordinator", "--shuffle-partitions", "20000")).isEqualTo(2);
        assertThat(err()).contains("--shuffle-partitions: sluice.shuffle.partitions must be between 0 and 10000, not 20000");
    }

    @Test
    void confSetsAnEmbeddedClusterOnlyAndSaysHowToSetACoordinatorsSession() {
        assertThat(run("sql", "--coordinator", "127.0.0.1:1", "--conf", "sluice.job.timeout=1m", "-e", "SELECT 1")).isEqualTo(2);
        assertThat(err()).contains("--conf and --config set an embedded cluster's settings (--local)")
                .contains("'SET name = value;'");
    }

    @Test
    void everyCommandTakesVerbose() {
        // parsed (exit 1: the script file is missing), not refused as an unknown option (exit 2)
        assertThat(run("sql", "--verbose", "--coordinator", "127.0.0.1:1", "-f", "/no/such/script.sql")).isEqualTo(1);
        assertThat(run("jobs", "--verbose", "--help")).isZero();
    }

    @Test
    void unreadableScriptFileIsAnErrorNamingTheFile() {
        assertThat(run("sql", "--coordinator", "127.0.0.1:1", "-f", "/no/such/script.sql")).isEqualTo(1);
        assertThat(err()).isEqualTo("error: cannot read the script file /no/such/script.sql: NoSuchFileException: /no/such/script.sql\n");
    }

    @Test
    void standaloneNodesRefuseToStartWithoutASecret() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("SLUICE_AUTH_SECRET") == null
                && System.getProperty("sluice.auth.secret-file") == null, "a secret is configured for this JVM");
        assertThat(run("coordinator", "--port", "1")).isEqualTo(1);
        assertThat(err()).startsWith("error: no cluster secret: set SLUICE_AUTH_SECRET").contains("--insecure")
                .hasLineCount(1);
        err.reset();
        assertThat(run("worker", "--coordinator", "127.0.0.1:1")).isEqualTo(1);
        assertThat(err()).startsWith("error: no cluster secret");
    }

    @Test
    void aCommandLineNamingACommandHasThatOneTheTopLevelAllInOrder() {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        java.util.List<String> all = java.util.List.of("coordinator", "worker", "sql", "local", "submit", "jobs", "cancel", "history");
        assertThat(Main.commandLine(sink, sink).getSubcommands().keySet()).containsExactlyElementsOf(all);
        assertThat(Main.commandLine(sink, sink, new String[] {"sql", "--local", "1"}).getSubcommands().keySet()).containsExactly("sql");
        assertThat(Main.commandLine(sink, sink, new String[] {"--verbose", "sql"}).getSubcommands().keySet())
                .containsExactlyElementsOf(all);
        assertThat(Main.commandLine(sink, sink, new String[] {"nosuch"}).getSubcommands().keySet()).containsExactlyElementsOf(all);
    }

    @Test
    void topLevelHelpListsEveryCommandAndOptionsBeforeTheCommandStillWork() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("coordinator").contains("worker").contains("submit")
                .contains("history");
        assertThat(run("--verbose", "jobs", "--help")).isZero();
        assertThat(run("nosuch")).isEqualTo(2);
        assertThat(err()).contains("nosuch");
    }

    @Test
    void nettysFlightRecorderEventsAreOffUnlessAskedFor() {
        String before = System.getProperty(Main.NETTY_JFR);
        try {
            System.clearProperty(Main.NETTY_JFR);
            Main.withoutNettyFlightRecorderEvents();
            assertThat(System.getProperty(Main.NETTY_JFR)).isEqualTo("false");
            System.setProperty(Main.NETTY_JFR, "true");
            Main.withoutNettyFlightRecorderEvents();
            assertThat(System.getProperty(Main.NETTY_JFR)).isEqualTo("true");
        } finally {
            if (before == null) {
                System.clearProperty(Main.NETTY_JFR);
            } else {
                System.setProperty(Main.NETTY_JFR, before);
            }
        }
    }

    @Test
    void helpGoesToStdout() {
        assertThat(run("sql", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--format");
        assertThat(err.size()).isZero();
    }

    @Test
    void errorMessagesPreferTheUserErrorInTheCauseChain() {
        RuntimeException wrapped = new IllegalStateException("wrapper", new SluiceException("unknown table 'x'\nknown: y"));
        assertThat(ErrorReporter.message(wrapped)).isEqualTo("unknown table 'x' known: y");
        assertThat(ErrorReporter.message(new IllegalStateException(new java.net.ConnectException())))
                .isEqualTo("ConnectException");
    }

    @Test
    void hostPorts() {
        assertThat(HostPort.parse("coordinator:7355")).isEqualTo(new HostPort("coordinator", 7355));
        assertThat(HostPort.parse("[::1]:8080").toString()).isEqualTo("[::1]:8080");
        assertThatThrownBy(() -> HostPort.parse("host:0")).isInstanceOf(TypeConversionException.class);
        assertThatThrownBy(() -> HostPort.parse(":80")).isInstanceOf(TypeConversionException.class);
        assertThatThrownBy(() -> HostPort.parse("host:http")).isInstanceOf(TypeConversionException.class);
    }
}
