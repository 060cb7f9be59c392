package io.sluice.cli;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.connect.ConnectServer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice local}: a coordinator and workers in this one process, serving HTTP on 127.0.0.1. */
@Command(name = "local", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Runs an embedded cluster (coordinator and workers in one process) until terminated.")
final class LocalCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--workers", defaultValue = "2", paramLabel = "N", description = "Number of workers (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--http-port", defaultValue = "8080", paramLabel = "PORT",
            description = "HTTP port for clients; 0 takes a free one (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Mixin
    ConfOptions confOptions = new ConfOptions();

    @Mixin
    EventLogOption eventLog = new EventLogOption();

    @Mixin
    HttpTlsServerOptions httpTls = new HttpTlsServerOptions();

    @Mixin
    ConnectPortOption connect = new ConnectPortOption();

    @Option(names = "--allow-job-jars", description = "Run job jars submitted with 'sluice submit --deploy-mode "
            + "cluster' in this process: anyone with the secret may then run code here. Off by default.")
    boolean allowJobJars;

    @Override
    public Integer call() throws InterruptedException {
        SluiceConf conf = confOptions.load();
        conf.applySystemProperties();
        eventLog.apply();
        httpTls.apply();
        Options.atLeast(spec, "--workers", workers, 1);
        Options.port(spec, "--http-port", httpPort);
        LocalCluster cluster = LocalCluster.start(conf.localCluster(LocalCluster.Options.of(workers).withHttpPort(httpPort)));
        if (allowJobJars) {
            cluster.allowJobJars();
        }
        spec.commandLine().getErr().println("local cluster ready: " + workers + " workers, cluster "
                + cluster.coordinator().clusterAddress() + ", " + HttpTlsServerOptions.describe("127.0.0.1",
                cluster.coordinator().httpPort(), cluster.coordinator().httpsFingerprint()));
        String configured = System.getenv(Session.AUTH_SECRET_VARIABLE);
        if (configured == null || configured.isEmpty()) {
            // like a notebook server's token: the one way a client learns a secret made up for this run
            spec.commandLine().getErr().println("clients need this cluster's secret: export "
                    + Session.AUTH_SECRET_VARIABLE + "=" + cluster.authSecret());
        }
        ConnectServer connectServer;
        try {
            connectServer = connect.start(spec, cluster.coordinator(), "127.0.0.1", cluster.authSecret());
        } catch (RuntimeException e) {
            cluster.close(); // the Spark Connect port could not be served: stop the node rather than leave it half up
            throw e;
        }
        Foreground.run(ConnectPortOption.withNode(connectServer, cluster), Foreground::forever);
        return 0;
    }
}
