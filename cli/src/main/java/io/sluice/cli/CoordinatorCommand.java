package io.sluice.cli;

import io.sluice.coordinator.Coordinator;
import io.sluice.coordinator.CoordinatorSettings;
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
            description = "Cluster port workers join (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--http-port", defaultValue = "8080", paramLabel = "PORT",
            description = "HTTP port for clients (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--shuffle-partitions", defaultValue = "0", paramLabel = "N",
            description = "Partitions per shuffle; 0 means twice the cluster's task slots (default: ${DEFAULT-VALUE}).")
    int shufflePartitions;

    @Mixin
    ConfOptions confOptions = new ConfOptions();

    @Override
    public Integer call() throws InterruptedException {
        Options.port(spec, "--port", port, false);
        Options.port(spec, "--http-port", httpPort, true);
        Options.atLeast(spec, "--shuffle-partitions", shufflePartitions, 0);
        SluiceConf conf = confOptions.load();
        conf.applySystemProperties();
        CoordinatorSettings coordinatorSettings = CoordinatorSettings.defaults(host, port, httpPort);
        coordinatorSettings = coordinatorSettings.withQueryDefaults(conf.queryDefaults(coordinatorSettings.queryDefaults()))
                .withScheduler(conf.scheduler());
        if (shufflePartitions > 0) {
            coordinatorSettings = coordinatorSettings.withShufflePartitions(shufflePartitions);
        }
        Coordinator coordinator = Coordinator.start(coordinatorSettings);
        spec.commandLine().getErr().println("coordinator ready: cluster " + coordinator.clusterAddress()
                + ", http " + new HostPort(host, coordinator.httpPort()));
        Foreground.run(coordinator, Foreground::forever);
        return 0;
    }
}
