package io.sluice.cluster.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import org.apache.pekko.actor.typed.ActorRef;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * Kryo configured for Sluice, and a shared pool of it for payloads that travel as bytes inside
 * messages: stage plans to workers, logical plans from clients.
 *
 * <p>Configuration: classes need no registration (bytes name each class, so both sides need only
 * the same classpath); references are tracked, so shared subtrees stay shared and cycles work
 * (except through JDK read-only collections, see {@link JdkCollectionSerializers}); classes without
 * a no-argument constructor are created without calling one (Objenesis), records through their
 * canonical constructor, so a record's validation runs again on the reading side.
 *
 * <p>Caveat: Kryo without registration will instantiate any class the bytes name; only read bytes
 * from members of your own cluster. Typed {@link ActorRef}s are refused here; inside Pekko
 * messages {@link KryoPekkoSerializer} handles them.
 */
public final class Kryos {
    private static final KryoPool POOL = new KryoPool(() -> {
        Kryo kryo = newKryo();
        kryo.addDefaultSerializer(ActorRef.class, ActorRefSerializer.refusing());
        return kryo;
    });

    private Kryos() {
    }

    /** A new Kryo with Sluice's configuration; not thread-safe, so use one per thread or a pool. */
    public static Kryo newKryo() {
        Kryo kryo = new Kryo();
        kryo.setRegistrationRequired(false);
        kryo.setReferences(true);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        kryo.setClassLoader(Kryos.class.getClassLoader());
        JdkCollectionSerializers.register(kryo);
        return kryo;
    }

    /** Serializes {@code value} (may be null); safe from any thread. */
    public static byte[] serialize(Object value) {
        return POOL.serialize(value);
    }

    /** Reads bytes from {@link #serialize}; fails with a {@code KryoException} if they hold no {@code type}. */
    public static <T> T deserialize(byte[] bytes, Class<T> type) {
        return POOL.deserialize(bytes, type);
    }
}
