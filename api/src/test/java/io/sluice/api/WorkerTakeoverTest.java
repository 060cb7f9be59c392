package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.cluster.NodeConfig;
import io.sluice.cluster.SluiceNode;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.ServiceKeys;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A second node holding the secret that offers itself as a coordinator cannot take a worker over:
 * the workers register only with the coordinator they were started with, and keep serving it.
 */
class WorkerTakeoverTest {
    private static Session session;
    private static ActorSystem<CoordinatorCommand> impostor;
    private static final Set<String> registeredWithImpostor = ConcurrentHashMap.newKeySet();

    @BeforeAll
    static void start() {
        session = Session.local(LocalCluster.Options.of(2));
        LocalCluster cluster = session.localCluster();
        impostor = SluiceNode.start(Behaviors.setup(ctx -> {
            ctx.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.COORDINATOR, ctx.getSelf()));
            return Behaviors.receive(CoordinatorCommand.class).onMessage(RegisterWorker.class, m -> {
                registeredWithImpostor.add(m.workerId());
                return Behaviors.same();
            }).onAnyMessage(m -> Behaviors.same()).build();
        }), NodeConfig.worker("127.0.0.1", 0, cluster.coordinator().clusterAddress())
                .withSecret(cluster.authSecret()).withStableAfter(Duration.ofSeconds(2)));
    }

    @AfterAll
    static void stop() throws Exception {
        SluiceNode.terminate(impostor, Duration.ofSeconds(30));
        ClusterTesting.closeAll(session);
    }

    @Test
    void aSecondCoordinatorWithTheSecretGetsNoWorker() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (Cluster.get(impostor).selfMember().status() != MemberStatus.up() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(Cluster.get(impostor).selfMember().status()).as("the impostor joined").isEqualTo(MemberStatus.up());
        // the receptionist's listing reaches the workers within a few gossip rounds
        Thread.sleep(8_000);
        assertThat(registeredWithImpostor).isEmpty();
        assertThat(session.localCluster().coordinator().workers()).hasSize(2);
        assertThat(session.sql("SELECT x, count(*) AS c FROM (VALUES (1), (2), (2)) AS t(x) GROUP BY x ORDER BY x")
                .collect().rows().toString()).isEqualTo("[[1, 1], [2, 2]]");
    }
}
