package io.sluice.cluster.protocol;

/**
 * Marker for every message that crosses nodes. The node configuration binds this interface to
 * {@link io.sluice.cluster.serialization.KryoPekkoSerializer}; with Java serialization switched off,
 * a message that does not implement it cannot be sent to another node at all (Pekko drops it and
 * logs the serialization failure), which keeps the wire format explicit.
 */
public interface SluiceMessage {
}
