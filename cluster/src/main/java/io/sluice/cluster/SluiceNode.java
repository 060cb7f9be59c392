package io.sluice.cluster;

import static java.util.Objects.requireNonNull;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sluice.cluster.auth.ArteryCredentials;
import io.sluice.cluster.auth.SecretSslEngineProvider;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
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
     */
    public static <T> ActorSystem<T> start(Behavior<T> guardian, NodeConfig config) {
        return start(guardian, config, ConfigFactory.load());
    }

    /** {@link #start(Behavior, NodeConfig)} with {@code fallback} for settings {@code config} leaves open. */
    public static <T> ActorSystem<T> start(Behavior<T> guardian, NodeConfig config, Config fallback) {
        requireNonNull(guardian, "guardian is null");
        requireNonNull(config, "config is null");
        requireNonNull(fallback, "fallback is null");
        ActorSystem<T> system = ActorSystem.create(guardian, NodeConfig.SYSTEM_NAME, config.toConfig(fallback));
        if (config.seedNodes().isEmpty()) {
            Cluster cluster = Cluster.get(system);
            cluster.manager().tell(Join.create(cluster.selfMember().address()));
        }
        return system;
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
