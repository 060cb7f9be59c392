package io.sluice.cluster.serialization;

import static java.util.Objects.requireNonNull;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import java.util.function.Supplier;

/**
 * A thread-safe pool of Kryo instances made by one factory. Kryo itself is not thread-safe; each
 * call here borrows an instance for its duration, so any number of threads may call at once.
 * Bytes carry the object's class name, so the reading side needs the same classes but no
 * registration order.
 */
public final class KryoPool {
    /** Instances kept for reuse; more may exist for a moment under contention, then are dropped. */
    private static final int MAX_POOLED = 32;

    private final Pool<Kryo> pool;

    public KryoPool(Supplier<Kryo> factory) {
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
            Output output = new Output(256, -1);
            kryo.writeClassAndObject(output, value);
            return output.toBytes();
        } finally {
            pool.free(kryo);
        }
    }

    /**
     * Reads what {@link #serialize} wrote and checks it is a {@code type}.
     *
     * @throws KryoException if the bytes are malformed, name an unknown class or hold another type
     */
    public <T> T deserialize(byte[] bytes, Class<T> type) {
        requireNonNull(bytes, "bytes is null");
        requireNonNull(type, "type is null");
        Object value;
        Kryo kryo = pool.obtain();
        try {
            value = kryo.readClassAndObject(new Input(bytes));
        } finally {
            pool.free(kryo);
        }
        if (value != null && !type.isInstance(value)) {
            throw new KryoException("expected a " + type.getName() + " but read a " + value.getClass().getName());
        }
        return type.cast(value);
    }
}
