package io.sluice.cli;

import io.sluice.api.AuthSecrets;
import io.sluice.api.CoordinatorTls;
import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.api.StartupTrace;
import io.sluice.cli.shell.OutputFormat;
import io.sluice.cli.shell.ResultPrinter;
import io.sluice.cli.shell.ScriptRunner;
import io.sluice.cli.shell.SqlShell;
import io.sluice.cli.shell.SqlStatements.Statement;
import io.sluice.common.SluiceException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice sql}: runs SQL on an embedded cluster or a running coordinator. With {@code -e},
 * {@code -f} or a script piped on stdin, it runs every statement and prints every result in order;
 * with a terminal and no script, it opens the interactive shell ({@link SqlShell}). Only results
 * go to stdout.
 */
@Command(name = "sql", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Runs SQL statements (separated by ';') and prints each one's result.",
            "Without -e or -f: reads the statements from stdin, or, on a terminal, opens an interactive shell "
                    + "(history in ~/.sluice_history or $SLUICE_HISTORY; Tab completes; Ctrl-C cancels a running "
                    + "query; Ctrl-D leaves)."})
final class SqlCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Script script;

    @Option(names = "--progress", negatable = true,
            description = "Draw a progress bar of the running stages on stderr (default: when the console is a terminal).")
    Boolean progress;

    @Option(names = "--format", defaultValue = "table", paramLabel = "FORMAT",
            description = "table, csv, tsv, json (one object per row), or arrow or parquet (a file, with --output) "
                    + "(default: ${DEFAULT-VALUE}). In csv, tsv and json, statements without rows (DDL, SET) print "
                    + "nothing; in table, their status goes to stderr.")
    OutputFormat format;

    @Option(names = "--output", paramLabel = "FILE",
            description = "With --format arrow or parquet: the new file the script's one query result is written to.")
    String output;

    /** With --local: the embedded cluster's settings (limits, session defaults, sluice.hadoop.*). */
    @Mixin
    ConfOptions confOptions = new ConfOptions();

    @Option(names = "--shared-catalog", description = "With --coordinator: create and read tables in the cluster's "
            + "shared catalog, which other clients see, instead of this run's own.")
    boolean sharedCatalog;

    @Mixin
    HttpTlsClientOptions httpTls = new HttpTlsClientOptions();

    /** Where the script runs. */
    static final class Target {
        @Option(names = "--local", paramLabel = "N", description = "Start an embedded cluster of N workers for this script.")
        Integer workers;

        @Option(names = "--coordinator", paramLabel = "[https://]HOST:HTTP_PORT", converter = HostPort.Converter.class,
                description = "Send the script to a running coordinator's HTTP port.")
        HostPort coordinator;
    }

    /** The script itself. */
    static final class Script {
        @Option(names = "-e", paramLabel = "SQL", description = "The script text.")
        String text;

        @Option(names = "-f", paramLabel = "FILE", description = "A file holding the script.")
        Path file;

        String read() {
            if (text != null) {
                return text;
            }
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new SluiceException("cannot read the script file " + file + ": " + ErrorReporter.message(e));
            }
        }
    }

    @Override
    public Integer call() throws IOException {
        if (format.toFile() != (output != null)) {
            throw new ParameterException(spec.commandLine(), "--output goes with --format arrow or parquet, "
                    + "which write the result to that file");
        }
        PrintWriter err = spec.commandLine().getErr();
        if (script == null && System.console() != null) {
            if (format.toFile()) {
                throw new ParameterException(spec.commandLine(), "the shell prints results: --format "
                        + format.name().toLowerCase(Locale.ROOT) + " writes a script's result, given with -e, -f or on stdin");
            }
            try (Session session = open()) {
                new SqlShell(session, format, progress == null || progress, SqlShell.historyFile(System.getenv())).run();
            }
            return 0;
        }
        String sql = script != null ? script.read() : new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
        List<Statement> statements;
        try {
            statements = ScriptRunner.statements(sql, format);
        } catch (SluiceException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (statements.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "the script is empty" + (script == null
                    ? ": give SQL with -e, -f or on stdin, or run 'sluice sql' in a terminal for the shell" : ""));
        }
        ResultPrinter printer = new ResultPrinter(format, output, spec.commandLine().getOut(), err);
        try (Session session = open()) {
            StartupTrace.mark("session open");
            boolean bar = progress != null ? progress : System.console() != null;
            new ScriptRunner(session, printer, bar ? err : null).run(statements);
            StartupTrace.mark("results printed");
        }
        return 0;
    }

    private Session open() {
        if (target.coordinator != null) {
            if (!confOptions.conf.isEmpty() || confOptions.config != null) {
                throw new ParameterException(spec.commandLine(), "--conf and --config set an embedded cluster's "
                        + "settings (--local); a running coordinator has its own: change a session setting with "
                        + "'SET name = value;' in the script");
            }
            CoordinatorTls tls = httpTls.tls(target.coordinator);
            return sharedCatalog
                    ? Session.connectShared(target.coordinator.uriHost(), target.coordinator.port(), AuthSecrets.configured(), tls)
                    : Session.connect(target.coordinator.uriHost(), target.coordinator.port(), AuthSecrets.configured(), tls);
        }
        SluiceConf conf = confOptions.load();
        conf.applySystemProperties();
        return Session.local(conf.localCluster(LocalCluster.Options.of(Options.atLeast(spec, "--local", target.workers, 1))));
    }
}
