package io.sluice.cli;

import io.sluice.api.StartupTrace;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
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
        description = "Sluice, a distributed batch query engine.")
public final class Main implements Runnable {
    /**
     * The commands, by name, in the order help lists them. Added by {@link #commandLine}, not named in
     * {@code @Command}: picocli reads every command's annotations by reflection when it is added,
     * a tenth of a second of a cold JVM for all eight, so a command line naming one adds that one.
     */
    private static final Map<String, Supplier<Object>> COMMANDS = commands();

    private static Map<String, Supplier<Object>> commands() {
        Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("coordinator", CoordinatorCommand::new);
        commands.put("worker", WorkerCommand::new);
        commands.put("sql", SqlCommand::new);
        commands.put("local", LocalCommand::new);
        commands.put("submit", SubmitCommand::new);
        commands.put("jobs", JobsCommand::new);
        commands.put("cancel", CancelCommand::new);
        commands.put("history", HistoryCommand::new);
        return commands;
    }

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
        withoutNettyFlightRecorderEvents();
        PrintStream results = claimStdout();
        Main.results = results;
        int status = commandLine(results, System.err, args).execute(args);
        StartupTrace.mark("exiting");
        System.exit(status);
    }

    /** Netty's own property, which {@code -Dio.netty.jfr.enabled=true} (SLUICE_JAVA_OPTS) still sets. */
    static final String NETTY_JFR = "io.netty.jfr.enabled";

    /**
     * Netty (4.2) asks for and sets up its Flight Recorder events as it first loads, which loads the
     * JDK's JFR classes (about a hundred) in every command, recording or not; a command turns them off
     * unless told otherwise. Before any Netty class loads.
     */
    static void withoutNettyFlightRecorderEvents() {
        if (System.getProperty(NETTY_JFR) == null) {
            System.setProperty(NETTY_JFR, "false");
        }
    }

    /** The configured command line with every command; {@code out} receives results and help, {@code err} errors. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        return commandLine(out, err, new String[0]);
    }

    /**
     * The command line for {@code args}: with only the command {@code args} starts with, if it
     * names one (what is parsed after it is that command's alone), else with every command (for
     * the top-level help, version and errors, which list them).
     */
    static CommandLine commandLine(PrintStream out, PrintStream err, String[] args) {
        CommandLine cmd = new CommandLine(new Main());
        Supplier<Object> named = args.length > 0 ? COMMANDS.get(args[0]) : null;
        if (named != null) {
            cmd.addSubcommand(named.get());
        } else {
            COMMANDS.values().forEach(command -> cmd.addSubcommand(command.get()));
        }
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
