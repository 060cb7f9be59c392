package io.sluice.cli;

import io.sluice.api.AuthSecrets;
import io.sluice.api.CoordinatorTls;
import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.common.SluiceException;
import io.sluice.kernels.QueryResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice sql}: runs a SQL script on an embedded cluster or a running coordinator and
 * prints the last statement's result. Only the result goes to stdout.
 */
@Command(name = "sql", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Runs a SQL script (statements separated by ';') and prints the last statement's result.")
final class SqlCommand implements Callable<Integer> {
    enum Format { TABLE, CSV }

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Script script;

    @Option(names = "--progress", negatable = true,
            description = "Draw a progress bar of the running stages on stderr (default: when the console is a terminal).")
    Boolean progress;

    @Option(names = "--format", defaultValue = "table", paramLabel = "FORMAT",
            description = "table or csv (default: ${DEFAULT-VALUE}). csv prints a header line and the rows, nothing else.")
    Format format;

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
    public Integer call() {
        String sql = script.read();
        if (sql.isBlank()) {
            throw new ParameterException(spec.commandLine(), "the script is empty");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Session session = open()) {
            QueryResult result;
            if (progress != null ? progress : System.console() != null) {
                String tag = "sql-" + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());
                try (ProgressBar bar = ProgressBar.start(session::runningQueries, session::monitoredQuery, tag,
                        spec.commandLine().getErr(), java.time.Duration.ofMillis(500))) {
                    result = session.sql(sql, tag);
                }
            } else {
                result = session.sql(sql).collect();
            }
            // printed before the session closes: the answer does not wait for an embedded cluster to stop
            out.print(format == Format.CSV ? result.toCsv() : result.toTable());
            out.flush();
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
