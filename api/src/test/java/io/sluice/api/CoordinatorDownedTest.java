package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.cluster.NodeConfig;
import io.sluice.cluster.SluiceNode;
import io.sluice.common.SluiceException;
import io.sluice.worker.Worker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's node is downed by the cluster while a query runs (as the split-brain resolver
 * does to a node it cannot see): its actor system stops, no task can be sent or report back, and the
 * query fails at once naming why, instead of waiting out the job timeout.
 */
class CoordinatorDownedTest {
    @Test
    void aQueryFailsAtOnceWhenTheCoordinatorsNodeIsDowned() throws Exception {
        ActorSystem<Void> member = null;
        try (Session session = Session.local(LocalCluster.Options.of(2))) {
            LocalCluster cluster = session.localCluster();
            String coordinator = cluster.coordinator().clusterAddress();
            member = SluiceNode.start(Behaviors.<Void>empty(), NodeConfig.worker("127.0.0.1", 0, coordinator)
                    .withSecret(cluster.authSecret()).withStableAfter(Duration.ofSeconds(2)));
            long upBy = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (Cluster.get(member).selfMember().status() != MemberStatus.up() && System.nanoTime() < upBy) {
                Thread.sleep(100);
            }
            assertThat(Cluster.get(member).selfMember().status()).as("the extra member joined").isEqualTo(MemberStatus.up());

            // 25 billion pairs: far longer than this test waits, far shorter than the 30-minute job timeout
            CompletableFuture<Object> query = CompletableFuture.supplyAsync(() -> session.sql(
                    "SELECT count(*) AS pairs FROM (VALUES (1)) v(x), range(0, 160000) a, range(0, 160000) b "
                            + "WHERE a.id <> b.id").collect());
            long runningBy = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (activeTasks(cluster) == 0 && !query.isDone() && System.nanoTime() < runningBy) {
                Thread.sleep(20);
            }
            assertThat(activeTasks(cluster)).as("tasks running on the workers").isPositive();

            long downed = System.nanoTime();
            Cluster.get(member).manager().tell(new Down(AddressFromURIString.parse(coordinator)));
            assertThatThrownBy(() -> query.get(60, TimeUnit.SECONDS)).rootCause().isInstanceOf(SluiceException.class)
                    .hasMessageContaining("the coordinator's cluster node stopped");
            assertThat(Duration.ofNanos(System.nanoTime() - downed)).isLessThan(Duration.ofSeconds(30));

            // a query after that fails at once too, with the same reason
            assertThatThrownBy(() -> session.sql("SELECT 1 AS one").collect()).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("the coordinator's cluster node stopped");
        } finally {
            if (member != null) {
                SluiceNode.halt(member, Duration.ofSeconds(30));
            }
        }
    }

    private static int activeTasks(LocalCluster cluster) {
        return cluster.workers().stream().mapToInt(Worker::activeTasks).sum();
    }
}
