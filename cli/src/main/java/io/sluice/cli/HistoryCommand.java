package io.sluice.cli;

import io.sluice.api.AuthSecrets;
import io.sluice.common.settings.Settings;
import io.sluice.coordinator.HistoryServer;
import io.sluice.coordinator.monitor.MonitorSettings;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice history}: the monitoring REST API and web UI of the queries in an event log
 * directory, served without a cluster (docs/monitoring.md).
 */
@Command(name = "history", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Serves the monitoring API and UI of the queries logged under --event-log-dir until terminated.")
final class HistoryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--event-log-dir", required = true, paramLabel = "DIR",
            description = "The directory a coordinator wrote its event log to (--event-log-dir, sluice.event-log.dir).")
    Path directory;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST",
            description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--http-port", defaultValue = "18080", paramLabel = "PORT",
            description = "HTTP port; 0 takes a free one (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--insecure", description = "Serve without the secret. Otherwise requests need "
            + "SLUICE_AUTH_SECRET (or -Dsluice.auth.secret-file=PATH) as a bearer token, as the coordinator does.")
    boolean insecure;

    @Mixin
    ConfOptions confOptions = new ConfOptions();

    @Mixin
    HttpTlsServerOptions httpTls = new HttpTlsServerOptions();

    @Override
    public Integer call() throws InterruptedException {
        Options.port(spec, "--http-port", httpPort);
        confOptions.load().applySystemProperties();
        httpTls.apply();
        String secret = AuthSecrets.required(insecure);
        HistoryServer server = HistoryServer.start(directory, host, httpPort, secret,
                Settings.systemProperty(MonitorSettings.RETAINED_QUERIES));
        server.replay().skipped().forEach(line -> spec.commandLine().getErr().println("skipped: " + line));
        spec.commandLine().getErr().println("history ready: " + server.replay().files() + " event logs from "
                + directory + ", " + HttpTlsServerOptions.describe(host, server.httpPort(), server.httpsFingerprint()));
        Foreground.run(server, Foreground::forever);
        return 0;
    }
}
