package io.sluice.cli;

import io.sluice.api.StartupTrace;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * Entry point of the {@code sluice} command. Exit codes: 0 success, 1 error, 2 usage error.
 * The process always ends with {@link System#exit}, so lingering non-daemon threads of Pekko,
 * Netty or Hadoop cannot keep a finished command alive.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Sluice, a distributed batch query engine.",
        subcommands = {CoordinatorCommand.class, WorkerCommand.class, SqlCommand.class, LocalCommand.class,
            SubmitCommand.class, JobsCommand.class, CancelCommand.class, HistoryCommand.class})
public final class Main implements Runnable {
    @Spec
    CommandSpec spec;

    /** Read by {@link LogSetup} before parsing; declared here so that every command accepts it. */
    @Option(names = LogSetup.VERBOSE, scope = ScopeType.INHERIT,
            description = "Log INFO lines to stderr too (by default a client prints results and errors only).")
    boolean verbose;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing command: one of coordinator, worker, sql, local, submit, history");
    }

    /** The real stdout, once {@link #main} claimed it; a submitted job's own output goes there. */
    static volatile PrintStream results = System.out;

    public static void main(String[] args) {
        StartupTrace.mark("main started");
        LogSetup.configure(args);
        PrintStream results = claimStdout();
        Main.results = results;
        int status = commandLine(results, System.err).execute(args);
        StartupTrace.mark("exiting");
        System.exit(status);
    }

    /** The configured command line; {@code out} receives results and help, {@code err} errors. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cmd = new CommandLine(new Main());
        cmd.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cmd.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setExecutionExceptionHandler(ErrorReporter::executionError);
        cmd.setParameterExceptionHandler(ErrorReporter::usageError);
        return cmd;
    }

    /**
     * Keeps the real stdout for results and points {@code System.out} at stderr, so that anything a
     * library prints (Pekko's startup logger, Hadoop warnings) cannot corrupt CSV output.
     */
    private static PrintStream claimStdout() {
        PrintStream stdout = System.out;
        System.setOut(System.err);
        return stdout;
    }
}
