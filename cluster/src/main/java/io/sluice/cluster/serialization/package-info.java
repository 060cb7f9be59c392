/**
 * Kryo for Sluice: {@link io.sluice.cluster.serialization.Kryos} for stage plans shipped as bytes, and
 * {@link io.sluice.cluster.serialization.KryoPekkoSerializer} for messages between nodes.
 */
package io.sluice.cluster.serialization;
