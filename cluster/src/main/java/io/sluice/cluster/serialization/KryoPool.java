package io.sluice.cluster.serialization;

import static java.util.Objects.requireNonNull;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import java.util.function.Supplier;

/**
 * A thread-safe pool of Kryo instances made by one factory. Kryo itself is not thread-safe; each
 * call here borrows an instance for its duration, so any number of threads may call at once.
 * Reading enforces {@link Kryos}' limits: message size, lengths ({@link BoundedInput}) and depth;
 * whatever goes wrong while reading is a {@link KryoException} naming it, never an error that could
 * take the calling thread (a Pekko dispatcher, a task slot) down.
 */
public final class KryoPool {
    /** Instances kept for reuse; more may exist for a moment under contention, then are dropped. */
    private static final int MAX_POOLED = 32;

    private final Pool<Kryo> pool;

    KryoPool(Supplier<Kryo> factory) {
        requireNonNull(factory, "factory is null");
        this.pool = new Pool<>(true, false, MAX_POOLED) {
            @Override
            protected Kryo create() {
                return factory.get();
            }
        };
    }

    public byte[] serialize(Object value) {
        Kryo kryo = pool.obtain();
        try {
            Output output = new Output(256, Kryos.MAX_MESSAGE_BYTES);
            kryo.writeClassAndObject(output, value);
            return output.toBytes();
        } catch (KryoException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("Buffer overflow")) {
                throw new KryoException("message larger than the limit of " + Kryos.MAX_MESSAGE_BYTES + " bytes");
            }
            throw e;
        } finally {
            pool.free(kryo);
        }
    }

    /**
     * Reads what {@link #serialize} wrote and checks it is a {@code type}.
     *
     * @throws KryoException if the bytes are malformed, too large or too deep, name a class not
     *                       on the wire list or hold another type
     */
    public <T> T deserialize(byte[] bytes, Class<T> type) {
        requireNonNull(bytes, "bytes is null");
        requireNonNull(type, "type is null");
        if (bytes.length > Kryos.MAX_MESSAGE_BYTES) {
            throw new KryoException("message of " + bytes.length + " bytes exceeds the limit of "
                    + Kryos.MAX_MESSAGE_BYTES);
        }
        Object value;
        Kryo kryo = pool.obtain();
        boolean clean = false;
        try {
            value = kryo.readClassAndObject(new BoundedInput(bytes, Kryos.MAX_LENGTH));
            clean = true;
        } catch (KryoException e) {
            throw e;
        } catch (StackOverflowError e) {
            throw new KryoException("message nests too deeply to read");
        } catch (RuntimeException e) {
            // a constructor refusing its arguments, a cast of a wrong element type, ...
            throw new KryoException("malformed message: " + e, e);
        } finally {
            if (clean) {
                pool.free(kryo);
            }
            // else: a Kryo that failed half-way may hold state (depth, references); drop it
        }
        if (value != null && !type.isInstance(value)) {
            throw new KryoException("expected a " + type.getName() + " but read a " + value.getClass().getName());
        }
        return type.cast(value);
    }
}
