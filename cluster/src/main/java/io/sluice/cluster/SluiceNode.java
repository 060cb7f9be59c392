package io.sluice.cluster;

import static java.util.Objects.requireNonNull;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sluice.cluster.auth.ArteryCredentials;
import io.sluice.cluster.auth.SecretSslEngineProvider;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.pekko.actor.ActorSystemImpl;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;

/** Starts and stops a Sluice node's actor system. */
public final class SluiceNode {
    private SluiceNode() {
    }

    /**
     * Starts actor system {@value NodeConfig#SYSTEM_NAME} with {@code guardian} and {@code config}.
     * Joining the cluster proceeds in the background; with no seed nodes the node joins itself and
     * so starts a new cluster. Returns once the system exists, before the node is {@code Up}.
     *
     * <p>A node with one seed (a worker and its coordinator) sends that seed Pekko's {@code Join}
     * directly, answered by {@code Welcome}: the seed-node process would first ask the seed with
     * {@code InitJoin} (a round trip carrying and checking the joining node's configuration, which
     * every Sluice node builds alike in {@link NodeConfig}) and resend it only every
     * {@code seed-node-timeout}. A {@code Join} that gets no answer is resent every
     * {@code retry-unsuccessful-join-after}, so a worker started before its coordinator still joins.
     */
    public static <T> ActorSystem<T> start(Behavior<T> guardian, NodeConfig config) {
        return start(guardian, config, ConfigFactory.load(PekkoClassLoader.forThisThread()));
    }

    /** {@link #start(Behavior, NodeConfig)} with {@code fallback} for settings {@code config} leaves open. */
    public static <T> ActorSystem<T> start(Behavior<T> guardian, NodeConfig config, Config fallback) {
        requireNonNull(guardian, "guardian is null");
        requireNonNull(config, "config is null");
        requireNonNull(fallback, "fallback is null");
        Config nodeConfig = config.toConfig(fallback);
        List<String> seeds = config.seedNodes();
        if (seeds.size() == 1) {
            nodeConfig = ConfigFactory.parseString("pekko.cluster.seed-nodes = []").withFallback(nodeConfig);
        }
        // Pekko's class loader, whose manifests are only Pekko's own (PekkoClassLoader)
        ActorSystem<T> system = ActorSystem.create(guardian, NodeConfig.SYSTEM_NAME,
                BootstrapSetup.create(nodeConfig).withClassloader(PekkoClassLoader.forThisThread()));
        if (seeds.size() <= 1) {
            Cluster cluster = Cluster.get(system);
            Address target = seeds.isEmpty() ? cluster.selfMember().address() : AddressFromURIString.parse(seeds.get(0));
            cluster.manager().tell(Join.create(target));
        }
        return system;
    }

    /**
     * Starts {@code ConfigFactory.load} (application.conf over every jar's reference.conf) on a
     * thread of its own and returns a way to wait for it. Parsing those files, Pekko's thousands of
     * lines among them, takes a cold JVM several hundred milliseconds, which can pass while the caller
     * makes what it needs before its actor system (TLS credentials, memory, shuffle client) instead
     * of after. It loads through the class loader the actor systems get ({@link PekkoClassLoader}, over
     * the caller's context class loader); {@code ConfigFactory} caches the result for that loader, so
     * later loads and the actor systems' own reading of reference.conf cost nothing.
     * A failure to load is thrown by the returned supplier, as {@code ConfigFactory.load()} throws it.
     */
    public static Supplier<Config> loadConfigInBackground() {
        CompletableFuture<Config> loaded = new CompletableFuture<>();
        // the actor system's class loader: Typesafe Config caches what it loads for one class loader
        ClassLoader classLoader = PekkoClassLoader.forThisThread();
        Thread loader = new Thread(() -> {
            try {
                loaded.complete(ConfigFactory.load(classLoader));
            } catch (Throwable e) {
                loaded.completeExceptionally(e);
            }
        }, "sluice-config-load");
        loader.setDaemon(true);
        loader.start();
        return () -> {
            try {
                return loaded.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw e;
            }
        };
    }

    /** Drops a terminated node's TLS credentials (it will make no more connections). */
    private static void forgetCredentials(ActorSystem<?> system) {
        String path = "pekko.remote.artery.ssl.config-ssl-engine." + SecretSslEngineProvider.HANDLE_KEY;
        if (system.settings().config().hasPath(path)) {
            ArteryCredentials.unregister(system.settings().config().getString(path));
        }
    }

    /** The address the node actually bound, with the real port when the configured one was 0. */
    public static Address selfAddress(ActorSystem<?> system) {
        return Cluster.get(system).selfMember().address();
    }

    /** {@link #selfAddress} as a seed-node string, e.g. {@code pekko://sluice@127.0.0.1:7355}. */
    public static String selfAddressString(ActorSystem<?> system) {
        return selfAddress(system).toString();
    }

    /**
     * Terminates the system (running coordinated shutdown: the node leaves the cluster first) and
     * waits up to {@code timeout}.
     *
     * @return whether it terminated in time
     */
    public static boolean terminate(ActorSystem<?> system, Duration timeout) {
        system.terminate();
        return awaitTermination(system, timeout);
    }

    /**
     * Terminates the system without coordinated shutdown: the node does not leave the cluster
     * (no leave, exiting and removal rounds of gossip), its actors and remoting just stop. Only for
     * a node whose whole cluster ends with it (an embedded cluster closing), where no member is
     * left to learn of the leave; a cluster that goes on would see this node as crashed.
     *
     * @return whether it terminated within {@code timeout}
     */
    public static boolean halt(ActorSystem<?> system, Duration timeout) {
        if (Adapter.toClassic(system) instanceof ActorSystemImpl classic) {
            classic.abort();
        } else {
            system.terminate();
        }
        return awaitTermination(system, timeout);
    }

    private static boolean awaitTermination(ActorSystem<?> system, Duration timeout) {
        try {
            system.getWhenTerminated().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            forgetCredentials(system);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }
}
