package io.sluice.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Artery over TLS with secret-bound certificates: nodes with the cluster's secret form a cluster;
 * a node with another secret or none never becomes a member, and garbage at the port leaves the
 * coordinator Up and serving.
 */
class ArteryAuthTest {
    private static final String HOST = "127.0.0.1";
    private static final String SECRET = "artery-auth-test-secret-0123456789";
    private static final String GUESS = "artery-auth-test-secret-0123456788";
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** How long a refused node is given to (fail to) join. */
    private static final Duration REFUSAL = Duration.ofSeconds(8);

    private final List<ActorSystem<?>> systems = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (int i = systems.size() - 1; i >= 0; i--) {
            SluiceNode.terminate(systems.get(i), WAIT);
        }
    }

    @Test
    void onlyNodesWithTheSecretJoin() throws Exception {
        ActorSystem<Void> coordinator = start(NodeConfig.coordinator(HOST, 0).withSecret(SECRET));
        String seed = SluiceNode.selfAddressString(coordinator);
        assertThat(coordinator.settings().config().getString("pekko.remote.artery.transport")).isEqualTo("tls-tcp");

        ActorSystem<Void> stranger = start(NodeConfig.worker(HOST, 0, seed).withSecret(GUESS));
        ActorSystem<Void> plain = start(NodeConfig.worker(HOST, 0, seed));
        garbageAt(port(coordinator));
        Thread.sleep(REFUSAL.toMillis());
        assertThat(upMembers(coordinator)).containsExactly(SluiceNode.selfAddress(coordinator).toString());
        assertThat(Cluster.get(stranger).selfMember().status()).isNotEqualTo(MemberStatus.up());
        assertThat(Cluster.get(plain).selfMember().status()).isNotEqualTo(MemberStatus.up());

        ActorSystem<Void> friend = start(NodeConfig.worker(HOST, 0, seed).withSecret(SECRET));
        awaitUntil(() -> upMembers(coordinator).size() == 2);
        assertThat(upMembers(coordinator)).contains(SluiceNode.selfAddress(friend).toString());
        assertThat(Cluster.get(coordinator).selfMember().status()).isEqualTo(MemberStatus.up());
    }

    private ActorSystem<Void> start(NodeConfig config) {
        ActorSystem<Void> system = SluiceNode.start(Behaviors.empty(), config.withStableAfter(Duration.ofSeconds(2)));
        systems.add(system);
        return system;
    }

    /** Random bytes, and a TLS-less Artery-looking prefix, thrown at a port for a second. */
    private static void garbageAt(int port) {
        Random random = new Random(1);
        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket(HOST, port)) {
                OutputStream out = socket.getOutputStream();
                byte[] bytes = new byte[1 + random.nextInt(512)];
                random.nextBytes(bytes);
                if (random.nextBoolean()) {
                    System.arraycopy("AKKA".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, bytes, 0,
                            Math.min(4, bytes.length));
                }
                out.write(bytes);
                out.flush();
            } catch (java.io.IOException expected) {
                // refused or reset: fine
            }
        }
    }

    private static int port(ActorSystem<?> system) {
        return (Integer) SluiceNode.selfAddress(system).getPort().get();
    }

    private static List<String> upMembers(ActorSystem<?> system) {
        List<String> out = new ArrayList<>();
        for (Member m : Cluster.get(system).state().getMembers()) {
            if (m.status() == MemberStatus.up()) {
                out.add(m.address().toString());
            }
        }
        return out;
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + WAIT);
            }
            Thread.sleep(50);
        }
    }
}
