package io.sluice.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.esotericsoftware.kryo.io.Output;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.SluiceMessage;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.serialization.KryoPekkoSerializer;
import io.sluice.operators.MapStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSelection;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.serialization.JSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile bytes that reach a node's Kryo over Artery (from a peer holding the secret, the only kind
 * that can connect): each message is dropped, the class it names is never loaded, and the node stays
 * Up and goes on receiving well-formed messages.
 */
class HostileArteryTest {
    private static final String HOST = "127.0.0.1";
    private static final String SECRET = "hostile-artery-test-secret-0123456789";
    private final List<Object> systems = new ArrayList<>();

    /** Carries raw bytes, written as they are by {@link RawBytesSerializer} under Kryo's serializer id. */
    public record HostileMessage(byte[] bytes) implements SluiceMessage {
    }

    /** Sends bytes where a well-behaved node would send Kryo. */
    public static final class RawBytesSerializer extends JSerializer {
        public RawBytesSerializer(ExtendedActorSystem system) {
        }

        @Override
        public int identifier() {
            return KryoPekkoSerializer.IDENTIFIER;
        }

        @Override
        public boolean includeManifest() {
            return false;
        }

        @Override
        public byte[] toBinary(Object o) {
            return o instanceof HostileMessage h ? h.bytes() : new byte[0];
        }

        @Override
        public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
            throw new UnsupportedOperationException("send only");
        }
    }

    @AfterEach
    void stop() {
        for (int i = systems.size() - 1; i >= 0; i--) {
            Object s = systems.get(i);
            if (s instanceof ActorSystem classic) {
                classic.terminate();
                classic.getWhenTerminated().toCompletableFuture().orTimeout(20, TimeUnit.SECONDS)
                        .exceptionally(e -> null).join();
            } else {
                SluiceNode.terminate((org.apache.pekko.actor.typed.ActorSystem<?>) s, Duration.ofSeconds(20));
            }
        }
    }

    @Test
    void hostileKryoOverArteryIsDroppedAndTheNodeStaysUp() throws Exception {
        BlockingQueue<CoordinatorCommand> received = new LinkedBlockingQueue<>();
        org.apache.pekko.actor.typed.ActorSystem<CoordinatorCommand> target = SluiceNode.start(
                Behaviors.receive(CoordinatorCommand.class).onAnyMessage(m -> {
                    received.add(m);
                    return Behaviors.same();
                }).build(), NodeConfig.coordinator(HOST, 0).withSecret(SECRET).withStableAfter(Duration.ofSeconds(2)));
        systems.add(target);
        String seed = SluiceNode.selfAddressString(target);

        Config hostileConfig = NodeConfig.worker(HOST, 0, seed).withSecret(SECRET).toConfig()
                .withValue("pekko.actor.serializers.sluice-kryo",
                        ConfigValueFactory.fromAnyRef(RawBytesSerializer.class.getName()));
        ActorSystem hostile = ActorSystem.create(NodeConfig.SYSTEM_NAME, hostileConfig);
        systems.add(hostile);
        ActorSelection guardian = hostile.actorSelection(seed + "/user");
        guardian.resolveOne(Duration.ofSeconds(20)).toCompletableFuture().get(30, TimeUnit.SECONDS);

        Output byName = new Output(128);
        byName.writeVarInt(1, true);
        byName.writeVarInt(0, true);
        byName.writeString("io.sluice.cluster.serialization.LoadTarget");
        Output hugeLength = new Output(16);
        hugeLength.writeVarInt(30, true); // some registered class id
        hugeLength.writeVarInt(Integer.MAX_VALUE, true);
        for (byte[] bytes : List.of(byName.toBytes(), hugeLength.toBytes(), new byte[] {(byte) 0xff, 1, 2, 3},
                new byte[0])) {
            guardian.tell(new HostileMessage(bytes), ActorRef.noSender());
        }
        KryoPekkoSerializer kryo = (KryoPekkoSerializer) org.apache.pekko.serialization.SerializationExtension
                .get(Adapter.toClassic(target)).serializerFor(TaskFinished.class);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (kryo.rejectedCount() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(kryo.rejectedCount()).as("hostile messages read and refused").isEqualTo(4);
        assertThat(received).isEmpty();
        assertThat(io.sluice.cluster.serialization.LoadFlag.loaded).as("LoadTarget loaded").isFalse();
        assertThat(Cluster.get(target).selfMember().status()).isEqualTo(MemberStatus.up());

        // and a well-formed message from a well-behaved node still arrives
        org.apache.pekko.actor.typed.ActorSystem<Void> friend = SluiceNode.start(Behaviors.empty(),
                NodeConfig.worker(HOST, 0, seed).withSecret(SECRET).withStableAfter(Duration.ofSeconds(2)));
        systems.add(friend);
        TaskFinished report = TaskFinished.succeeded("t", "w", new MapStatus("w", HOST, 1, new long[] {1}));
        Adapter.toClassic(friend).actorSelection(seed + "/user").tell(report, ActorRef.noSender());
        CoordinatorCommand arrived = received.poll(30, TimeUnit.SECONDS);
        assertThat(arrived).isInstanceOf(TaskFinished.class);
        assertThat(((TaskFinished) arrived).taskId()).isEqualTo("t");
    }
}
