package io.sluice.cluster.serialization;

import static java.util.Objects.requireNonNull;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;

/**
 * Writes a typed {@link ActorRef} as its Pekko path string (with the node's address) and reads it
 * back through {@link ActorRefResolver}, so that a reference sent to another node points back at
 * the original actor. Without a resolver (plain {@link Kryos}, outside any actor system) it refuses
 * with a clear error instead of letting Kryo copy the reference's internals.
 */
final class ActorRefSerializer extends Serializer<ActorRef<?>> {
    private final ActorRefResolver resolver;

    private ActorRefSerializer(ActorRefResolver resolver) {
        super(false, true);
        this.resolver = resolver;
    }

    /** A serializer that resolves references in the actor system that owns {@code resolver}. */
    static ActorRefSerializer resolvingWith(ActorRefResolver resolver) {
        return new ActorRefSerializer(requireNonNull(resolver, "resolver is null"));
    }

    /** A serializer that rejects every reference: for byte[] payloads that must not hold any. */
    static ActorRefSerializer refusing() {
        return new ActorRefSerializer(null);
    }

    @Override
    public void write(Kryo kryo, Output output, ActorRef<?> ref) {
        output.writeString(resolver().toSerializationFormat(ref));
    }

    @Override
    public ActorRef<?> read(Kryo kryo, Input input, Class<? extends ActorRef<?>> type) {
        return resolver().resolveActorRef(input.readString());
    }

    private ActorRefResolver resolver() {
        if (resolver == null) {
            throw new KryoException("an ActorRef can only be serialized inside a Pekko message "
                    + "(KryoPekkoSerializer), not with Kryos");
        }
        return resolver;
    }
}
