package io.sluice.cli;

import io.sluice.api.AuthSecrets;
import io.sluice.connect.ConnectServer;
import io.sluice.coordinator.Coordinator;
import io.sluice.coordinator.CoordinatorSettings;
import io.sluice.coordinator.CoordinatorSettingsDeclaration;
import io.sluice.datasource.FileAccessPolicy;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice coordinator}: the cluster's seed node and the HTTP endpoint clients send SQL to. */
@Command(name = "coordinator", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Runs a coordinator until terminated. Workers join its cluster port; clients use its HTTP port.")
final class CoordinatorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST",
            description = "Address to bind, and to advertise to workers, so it must be reachable by them (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "7355", paramLabel = "PORT",
            description = "Cluster port workers join; 0 takes a free one, named in the ready line "
                    + "(default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--http-port", defaultValue = "8080", paramLabel = "PORT",
            description = "HTTP port for clients; 0 takes a free one, named in the ready line "
                    + "(default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--shuffle-partitions", defaultValue = "0", paramLabel = "N",
            description = "Partitions per shuffle; 0 means the cluster's task slots (default: ${DEFAULT-VALUE}).")
    int shufflePartitions;

    @Mixin
    ConfOptions confOptions = new ConfOptions();

    @Mixin
    EventLogOption eventLog = new EventLogOption();

    @Mixin
    HttpTlsServerOptions httpTls = new HttpTlsServerOptions();

    @Option(names = "--data-dir", paramLabel = "PATH",
            description = "Keeps the catalog here (catalog/, one JSON file per database) and managed tables in "
                    + "warehouse/ (unless sluice.sql.warehouse-dir is set); tables may only be read under this directory "
                    + "(default: the working directory); -Dsluice.fs.allowed-roots=ROOT,... in SLUICE_JAVA_OPTS replaces "
                    + "it with a list of roots.")
    java.nio.file.Path dataDir;

    @Option(names = "--insecure", description = "Run without the cluster secret: anyone who reaches a port "
            + "controls the cluster. For a trusted machine only. The secret otherwise comes from "
            + "SLUICE_AUTH_SECRET or -Dsluice.auth.secret-file=PATH (docs/security.md).")
    boolean insecure;

    @Mixin
    ConnectPortOption connect = new ConnectPortOption();

    @Option(names = "--allow-job-jars", description = "Run job jars submitted with 'sluice submit --deploy-mode "
            + "cluster' (POST /v1/submit) on this coordinator: anyone with the secret may then run code here. "
            + "Off by default.")
    boolean allowJobJars;

    @Override
    public Integer call() throws InterruptedException {
        Options.port(spec, "--port", port);
        Options.port(spec, "--http-port", httpPort);
        Options.within(spec, "--shuffle-partitions", CoordinatorSettingsDeclaration.SHUFFLE_PARTITIONS, shufflePartitions);
        SluiceConf conf = confOptions.load();
        conf.applySystemProperties();
        eventLog.apply();
        httpTls.apply();
        String secret = AuthSecrets.required(insecure);
        java.nio.file.Path data = (dataDir != null ? dataDir : java.nio.file.Path.of("")).toAbsolutePath();
        CoordinatorSettings coordinatorSettings = CoordinatorSettings.defaults(host, port, httpPort).withAuthSecret(secret)
                .withFileAccess(FileAccessPolicy.fromSystemProperty(data.toString())).withDataDir(data);
        coordinatorSettings = coordinatorSettings.withQueryDefaults(conf.queryDefaults(coordinatorSettings.queryDefaults()))
                .withScheduler(conf.scheduler()).withJobTimeout(conf.jobTimeout());
        if (shufflePartitions > 0) {
            coordinatorSettings = coordinatorSettings.withShufflePartitions(shufflePartitions);
        }
        Coordinator coordinator = Coordinator.start(coordinatorSettings);
        if (allowJobJars || io.sluice.api.ClusterJobs.allowedBySystemProperty()) {
            io.sluice.api.ClusterJobs.acceptJobsOn(coordinator);
        }
        spec.commandLine().getErr().println("coordinator ready: cluster " + coordinator.clusterAddress()
                + ", " + HttpTlsServerOptions.describe(host, coordinator.httpPort(),
                coordinator.httpsFingerprint()));
        ConnectServer connectServer;
        try {
            connectServer = connect.start(spec, coordinator, host, secret);
        } catch (RuntimeException e) {
            coordinator.close(); // the Spark Connect port could not be served: stop the node rather than leave it half up
            throw e;
        }
        Foreground.run(ConnectPortOption.withNode(connectServer, coordinator), Foreground::forever);
        return 0;
    }
}
