package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * Part {@code index} of {@code count} of a protocol message too large for one transport frame,
 * sent to the relay of the node that holds {@code recipient} ({@link io.sluice.cluster.LargeMessages}),
 * which joins the parts of {@code messageId} in order and hands the message to {@code recipient}.
 * {@code bytes} is a slice of the message as the cluster's serializer wrote it.
 */
public record MessagePart(String messageId, int index, int count, ActorRef<?> recipient, byte[] bytes)
        implements SluiceMessage {
    public MessagePart {
        Checks.nonBlank(messageId, "messageId");
        Checks.nonNegative(index, "index");
        if (count < 2 || index >= count) {
            throw new IllegalArgumentException("part " + index + " of " + count + ": a message in parts has at least two, "
                    + "each numbered below the count");
        }
        requireNonNull(recipient, "recipient is null");
        requireNonNull(bytes, "bytes is null");
    }
}
