package io.sluice.cluster.serialization;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.JSerializer;

/**
 * Pekko serializer for {@link io.sluice.cluster.protocol.SluiceMessage}s (bound in {@link
 * io.sluice.cluster.NodeConfig}): Kryo with {@link Kryos}' configuration, plus typed {@link
 * ActorRef}s written as paths and resolved in this serializer's actor system. Pekko makes one
 * instance per actor system and calls it from many threads; the Kryo pool makes that safe.
 *
 * <p>No manifest: the bytes carry the registered class id. Bytes that do not read (a class not on
 * the wire list, a length or depth past the limits, garbage) throw, and Pekko drops the message
 * and logs it; the node goes on. The counters exist so tests can show that
 * messages really went through this serializer.
 */
public final class KryoPekkoSerializer extends JSerializer {
    /** Fixed, unique among the serializers of a Sluice node (Pekko reserves 0 to 40). */
    public static final int IDENTIFIER = 5_140_905;

    private final KryoPool pool;
    private final AtomicLong serialized = new AtomicLong();
    private final AtomicLong deserialized = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    public KryoPekkoSerializer(ExtendedActorSystem system) {
        requireNonNull(system, "system is null");
        this.pool = new KryoPool(() -> {
            // Looked up when the first Kryo is made, not in the constructor: Pekko creates
            // serializers while the system is still starting.
            ActorRefResolver resolver = ActorRefResolver.get(Adapter.toTyped(system));
            return Kryos.newKryo(ActorRefSerializer.resolvingWith(resolver));
        });
    }

    @Override
    public int identifier() {
        return IDENTIFIER;
    }

    @Override
    public boolean includeManifest() {
        return false;
    }

    @Override
    public byte[] toBinary(Object message) {
        byte[] bytes = pool.serialize(message);
        serialized.incrementAndGet();
        return bytes;
    }

    @Override
    public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
        Object message;
        try {
            message = pool.deserialize(bytes, Object.class);
        } catch (RuntimeException e) {
            rejected.incrementAndGet();
            throw e;
        }
        deserialized.incrementAndGet();
        return message;
    }

    /** Messages serialized by this instance so far. */
    public long serializedCount() {
        return serialized.get();
    }

    /** Messages this instance refused to read (Pekko dropped them). */
    public long rejectedCount() {
        return rejected.get();
    }

    /** Messages deserialized by this instance so far. */
    public long deserializedCount() {
        return deserialized.get();
    }
}
