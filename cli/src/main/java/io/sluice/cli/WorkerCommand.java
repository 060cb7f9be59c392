package io.sluice.cli;

import io.sluice.api.AuthSecrets;
import io.sluice.cluster.NodeConfig;
import io.sluice.common.SluiceException;
import io.sluice.worker.Worker;
import io.sluice.worker.WorkerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice worker}: joins a coordinator's cluster and runs tasks until terminated. */
@Command(name = "worker", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Runs a worker until terminated, or until the coordinator goes away.")
final class WorkerCommand implements Callable<Integer> {
    static final Duration REGISTER_TIMEOUT = Duration.ofSeconds(60);

    @Spec
    CommandSpec spec;

    @Option(names = "--coordinator", required = true, paramLabel = "HOST:PORT", converter = HostPort.Converter.class,
            description = "The coordinator's cluster address (its --host and --port).")
    HostPort coordinator;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST",
            description = "Address to bind, and to advertise to the coordinator and other workers (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "0", paramLabel = "PORT", description = "Cluster port; 0 takes a free one (default).")
    int port;

    @Option(names = "--shuffle-port", defaultValue = "0", paramLabel = "PORT",
            description = "Port other workers fetch shuffle data from; 0 takes a free one (default).")
    int shufflePort;

    @Option(names = "--slots", defaultValue = "2", paramLabel = "N", description = "Tasks run at once (default: ${DEFAULT-VALUE}).")
    int slots;

    @Option(names = "--dir", paramLabel = "PATH", description = "Directory for shuffle files (default: a temporary directory, deleted on exit).")
    Path dir;

    @Option(names = "--memory", paramLabel = "SIZE",
            description = "Memory the worker's tasks share, heap structures and Arrow buffers together, e.g. 512m or 4g "
                    + "(default: the sluice.worker.memory system property, else 60% of the maximum heap). Operators spill "
                    + "to --dir past it.")
    String memory;

    @Option(names = "--id", paramLabel = "NAME", description = "Worker name (default: worker-<host>-<port or random>).")
    String id;

    @Mixin
    ConfOptions confOptions = new ConfOptions();

    @Option(names = "--insecure", description = "Run without the cluster secret (the coordinator must too). "
            + "For a trusted machine only. The secret otherwise comes from SLUICE_AUTH_SECRET or "
            + "-Dsluice.auth.secret-file=PATH (docs/security.md).")
    boolean insecure;

    @Override
    public Integer call() throws InterruptedException {
        confOptions.load().applySystemProperties();
        Options.port(spec, "--port", port);
        Options.port(spec, "--shuffle-port", shufflePort);
        Options.atLeast(spec, "--slots", slots, 1);
        String secret = AuthSecrets.required(insecure);
        String workerId = id != null ? id : defaultId();
        Path directory = dir != null ? dir : temporaryDirectory();
        String coordinatorAddress = NodeConfig.address(coordinator.uriHost(), coordinator.port());
        WorkerSettings settings = WorkerSettings.defaults(workerId, host, coordinatorAddress, directory)
                .withSlots(slots).withPorts(port, shufflePort).withAuthSecret(secret);
        if (memory != null) {
            settings = settings.withMemory(io.sluice.operators.memory.Bytes.parse("--memory", memory));
        }
        Node node = startAndRegister(settings, dir == null);
        Worker worker = node.worker();
        spec.commandLine().getErr().println("worker ready: " + workerId + " on " + new HostPort(host, worker.clusterPort())
                + " joined " + coordinatorAddress + ", shuffle " + new HostPort(host, worker.shuffleServer().port())
                + ", " + slots + " slots");
        if (Foreground.run(node, worker::awaitTermination)) {
            throw new SluiceException("worker " + workerId + " left the cluster (was the coordinator at "
                    + coordinator + " stopped?)");
        }
        return 0;
    }

    /** A worker and the temporary directory to delete after it, if any. */
    private record Node(Worker worker, Path temporary) implements AutoCloseable {
        @Override
        public void close() {
            try {
                worker.close();
            } finally {
                if (temporary != null) {
                    deleteTree(temporary);
                }
            }
        }
    }

    private static Node startAndRegister(WorkerSettings settings, boolean temporary) {
        Worker worker;
        try {
            worker = Worker.start(settings);
        } catch (RuntimeException e) {
            if (temporary) {
                deleteTree(settings.localDirectory());
            }
            throw e;
        }
        Node node = new Node(worker, temporary ? settings.localDirectory() : null);
        try {
            worker.awaitRegistered(REGISTER_TIMEOUT);
            return node;
        } catch (RuntimeException e) {
            node.close();
            throw new SluiceException(e.getMessage() + " (is a coordinator running there, and can it reach "
                    + settings.host() + "?)");
        }
    }

    private String defaultId() {
        String suffix = port != 0 ? String.valueOf(port) : Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        return "worker-" + host + "-" + suffix;
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("sluice-worker-");
        } catch (IOException e) {
            throw new SluiceException("cannot create a temporary directory for shuffle files: " + e.getMessage());
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("cannot delete the temporary directory " + root + ": " + e);
        }
    }
}
