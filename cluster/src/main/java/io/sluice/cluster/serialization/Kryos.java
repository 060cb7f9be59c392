package io.sluice.cluster.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Kryo configured for Sluice, and a shared pool of it for payloads that travel as bytes inside
 * messages: stage plans to workers.
 *
 * <p>Configuration, chosen so that bytes from the network cannot make a node run or load code it
 * did not mean to: registration is required, with the explicit class list of {@link WireRegistry}
 * (bytes carry class ids; bytes naming a class by name are refused before anything is loaded);
 * there is no Objenesis fallback, so objects are made only through their constructors (records
 * through their canonical constructor, so a record's validation runs again on the reading side);
 * object graphs nest at most {@link #MAX_DEPTH} deep, a message is at most {@link
 * #MAX_MESSAGE_BYTES} and no string, array or collection is longer than {@link #MAX_LENGTH} or than
 * the bytes left in its message ({@link BoundedInput}). References are tracked, so shared subtrees
 * stay shared.
 *
 * <p>Typed {@link ActorRef}s are refused here; inside Pekko messages {@link KryoPekkoSerializer}
 * handles them.
 */
public final class Kryos {
    /** The largest message read or written (one larger than a transport frame crosses in parts: LargeMessages). */
    public static final int MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
    /** The most elements in one collection, array or string. */
    public static final int MAX_LENGTH = 1 << 20;
    /**
     * The deepest object graph read. A stage plan nests a few levels per operator and per
     * expression (SQL expressions are limited to far less), and this stays well inside a thread's
     * stack.
     */
    public static final int MAX_DEPTH = 1000;

    private static final KryoPool POOL = new KryoPool(() -> newKryo(ActorRefSerializer.refusing()));

    private Kryos() {
    }

    /**
     * A new Kryo with Sluice's configuration, writing typed actor references with {@code actorRefs};
     * not thread-safe, so use one per thread or a pool.
     */
    static Kryo newKryo(Serializer<?> actorRefs) {
        Kryo kryo = new Kryo(new NamesRefusingClassResolver(), null);
        kryo.setRegistrationRequired(true);
        kryo.setReferences(true);
        kryo.setMaxDepth(MAX_DEPTH);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy());
        kryo.setClassLoader(Kryos.class.getClassLoader());
        JdkCollectionSerializers.register(kryo);
        WireRegistry.registerAll(kryo, actorRefs);
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

    /**
     * Class ids only: Kryo's wire format can also name a class by its name, which an unregistered
     * class would use; a reader that loaded that name would load any class on the class path.
     */
    private static final class NamesRefusingClassResolver extends DefaultClassResolver {
        @Override
        protected Registration readName(Input input) {
            throw new KryoException("a class named on the wire is not accepted: only Sluice's registered wire "
                    + "classes may be sent");
        }
    }
}
