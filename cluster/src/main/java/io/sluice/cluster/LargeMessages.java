package io.sluice.cluster;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.protocol.MessagePart;
import io.sluice.cluster.serialization.KryoPekkoSerializer;
import io.sluice.cluster.serialization.Kryos;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;

/**
 * Protocol messages of any size up to {@link Kryos#MAX_MESSAGE_BYTES} over Artery's ordinary
 * frames. Artery makes each buffer of a stream at the stream's frame size, zeroed, as soon as the
 * stream carries anything (its handshake included), so frames of the protocol's 32 MiB limit, or a
 * large-message stream with them, cost every node of an embedded cluster tens of megabytes touched
 * at its start before any large message was sent. Instead a message that fits an ordinary frame goes
 * to its recipient as usual, and a larger one (a task with a large plan, a report with a large
 * runtime filter, many map outputs) goes in parts to the relay of the recipient's node, which joins
 * them and hands the message on.
 *
 * <p>Guarantees: the recipient gets the message whole or not at all. Parts of one message are sent
 * from one thread over one connection, so they arrive in order; parts of several messages may
 * interleave. A relay's memory is bounded ({@link #relay}) and a message over {@link
 * Kryos#MAX_MESSAGE_BYTES} is refused at its sender. Caveats: a message in parts passes the relay,
 * so a small message sent after it may reach the recipient first (a worker remembers the tasks
 * cancelled before they arrived); the message is serialized as it is sent, so one in parts is held
 * whole until Artery has sent its parts, and one that fits a frame is serialized twice (here, then
 * by Artery): protocol messages are a few per task.
 */
public final class LargeMessages {
    /** The relay's name under a node's guardian. */
    static final String RELAY_NAME = "large";

    /** Pekko's ordinary frame size, the only frames the nodes use. */
    public static final int ORDINARY_FRAME_BYTES = 256 * 1024;

    /** Room left in a frame for Artery's envelope and a part's own fields (recipient path, id). */
    static final int ENVELOPE_ALLOWANCE = 16 * 1024;

    /** The most message bytes one frame carries: a larger message goes in parts of this size. */
    static final int PART_BYTES = ORDINARY_FRAME_BYTES - ENVELOPE_ALLOWANCE;

    /** Messages a relay joins at once at most. */
    static final int MAX_ASSEMBLIES = 1024;

    /** Bytes a relay holds in messages being joined at most. */
    static final long MAX_ASSEMBLY_BYTES = 256L * 1024 * 1024;

    /** A message whose next part has not come for this long is dropped (its sender stopped, or a part was lost). */
    static final long ASSEMBLY_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private LargeMessages() {
    }

    /**
     * Starts the relay of {@code context}'s node; its guardian calls this once, as it is set up. The
     * relay restarts after a failure, losing only the messages it was joining.
     */
    public static void openRelay(ActorContext<?> context) {
        openRelay(context, RelayLimits.DEFAULT);
    }

    /** {@link #openRelay(ActorContext)} with other limits (tests). */
    static void openRelay(ActorContext<?> context, RelayLimits limits) {
        context.spawn(Behaviors.supervise(relay(limits)).onFailure(SupervisorStrategy.restart()), RELAY_NAME);
    }

    /** What a relay holds at most: messages and bytes being joined, and how long a message may wait for its next part. */
    record RelayLimits(int messages, long bytes, long idleNanos) {
        static final RelayLimits DEFAULT = new RelayLimits(MAX_ASSEMBLIES, MAX_ASSEMBLY_BYTES, ASSEMBLY_TIMEOUT_NANOS);

        RelayLimits {
            if (messages < 1 || bytes < 1 || idleNanos < 1) {
                throw new IllegalArgumentException("relay limits must be positive: " + messages + ", " + bytes + ", "
                        + idleNanos);
            }
        }
    }

    /**
     * Sends {@code message} to {@code target}: directly when it is on this node or the message fits
     * a frame, else in parts through the relay of {@code target}'s node.
     *
     * @throws IllegalArgumentException if the message does not serialize, as one larger than {@link
     *         Kryos#MAX_MESSAGE_BYTES} does not
     */
    public static <T> void tell(ActorRef<T> target, T message, ActorSystem<?> system) {
        requireNonNull(target, "target is null");
        requireNonNull(message, "message is null");
        if (target.path().address().hasLocalScope()) {
            target.tell(message);
            return;
        }
        Serializer serializer = serialization(system).findSerializerFor(message);
        if (serializer.identifier() != KryoPekkoSerializer.IDENTIFIER) {
            throw new IllegalArgumentException(message.getClass().getName() + " is not a protocol message");
        }
        byte[] bytes;
        try {
            bytes = serializer.toBinary(message); // Kryo writes at most Kryos.MAX_MESSAGE_BYTES
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(message.getClass().getSimpleName() + " cannot be sent: " + e.getMessage(),
                    e);
        }
        if (bytes.length <= PART_BYTES) {
            target.tell(message);
            return;
        }
        ActorRef<MessagePart> relay = ActorRefResolver.get(system).resolveActorRef(
                target.path().root().child("user").child(RELAY_NAME).toSerializationFormat());
        String id = UUID.randomUUID().toString();
        int count = (bytes.length + PART_BYTES - 1) / PART_BYTES;
        for (int i = 0; i < count; i++) {
            relay.tell(new MessagePart(id, i, count, target,
                    Arrays.copyOfRange(bytes, i * PART_BYTES, Math.min(bytes.length, (i + 1) * PART_BYTES))));
        }
    }

    private static Serialization serialization(ActorSystem<?> system) {
        return SerializationExtension.get(Adapter.toClassic(system));
    }

    /** A message being joined: its recipient, the parts still to come and the bytes so far. */
    private static final class Assembly {
        final ActorRef<?> recipient;
        final int count;
        int next;
        byte[] bytes = new byte[0];
        int length;
        long lastPart = System.nanoTime();

        Assembly(ActorRef<?> recipient, int count) {
            this.recipient = recipient;
            this.count = count;
        }

        /** Appends a part; false if the message would exceed the limit. */
        boolean append(byte[] part) {
            if ((long) length + part.length > Kryos.MAX_MESSAGE_BYTES) {
                return false;
            }
            if (length + part.length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(length + part.length, Math.min(Kryos.MAX_MESSAGE_BYTES,
                        2 * bytes.length)));
            }
            System.arraycopy(part, 0, bytes, length, part.length);
            length += part.length;
            next++;
            lastPart = System.nanoTime();
            return true;
        }
    }

    /**
     * Joins the parts of each message and hands the message to its recipient on this node. Holds at
     * most {@code limits} (by default {@link #MAX_ASSEMBLIES} messages and {@link #MAX_ASSEMBLY_BYTES}
     * bytes being joined): beyond either, and for a message whose next part has not come within the
     * idle limit ({@link #ASSEMBLY_TIMEOUT_NANOS}), the message least recently advanced is dropped,
     * with a warning.
     */
    static Behavior<MessagePart> relay(RelayLimits limits) {
        return Behaviors.setup(context -> {
            // least recently advanced first: a message is put back at the end as each part arrives
            Map<String, Assembly> assemblies = new LinkedHashMap<>();
            long[] held = {0};
            return Behaviors.receive(MessagePart.class).onMessage(MessagePart.class, part -> {
                Assembly assembly = assemblies.remove(part.messageId()); // a first part again starts it anew
                if (assembly != null) {
                    held[0] -= assembly.bytes.length;
                }
                if (part.index() == 0) {
                    assembly = new Assembly(part.recipient(), part.count());
                }
                if (assembly == null || assembly.next != part.index() || assembly.count != part.count()
                        || !assembly.recipient.equals(part.recipient())) {
                    context.getLog().warn("dropping part {} of {} of message {}: its earlier parts did not arrive",
                            part.index(), part.count(), part.messageId());
                    return Behaviors.same();
                }
                if (!assembly.append(part.bytes())) {
                    context.getLog().warn("dropping message {}: larger than {} bytes", part.messageId(),
                            Kryos.MAX_MESSAGE_BYTES);
                    return Behaviors.same();
                }
                if (assembly.next == assembly.count) {
                    deliver(context, part.messageId(), assembly);
                    return Behaviors.same();
                }
                assemblies.put(part.messageId(), assembly);
                held[0] += assembly.bytes.length;
                long now = System.nanoTime();
                while (!assemblies.isEmpty() && (assemblies.size() > limits.messages() || held[0] > limits.bytes()
                        || now - assemblies.values().iterator().next().lastPart > limits.idleNanos())) {
                    Map.Entry<String, Assembly> oldest = assemblies.entrySet().iterator().next();
                    assemblies.remove(oldest.getKey());
                    held[0] -= oldest.getValue().bytes.length;
                    context.getLog().warn("dropping message {} after {} of its {} parts: more than {} messages or {} "
                            + "bytes being joined, or none of its parts for {} s", oldest.getKey(), oldest.getValue().next,
                            oldest.getValue().count, limits.messages(), limits.bytes(),
                            TimeUnit.NANOSECONDS.toSeconds(limits.idleNanos()));
                }
                return Behaviors.same();
            }).build();
        });
    }

    @SuppressWarnings("unchecked")
    private static void deliver(ActorContext<MessagePart> context, String id, Assembly assembly) {
        if (!assembly.recipient.path().address().hasLocalScope()) {
            context.getLog().warn("dropping message {}: its recipient {} is not on this node", id, assembly.recipient);
            return;
        }
        Object message;
        try {
            message = serialization(context.getSystem())
                    .deserialize(assembly.length == assembly.bytes.length ? assembly.bytes
                            : Arrays.copyOf(assembly.bytes, assembly.length), KryoPekkoSerializer.IDENTIFIER, "")
                    .get();
        } catch (Exception e) { // Try.get rethrows what deserializing threw, checked or not
            context.getLog().warn("dropping message {}: its bytes do not read: {}", id, e.toString());
            return;
        }
        ((ActorRef<Object>) assembly.recipient).tell(message);
    }
}
