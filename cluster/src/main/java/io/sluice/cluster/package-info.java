/**
 * What coordinator and workers share: node configuration and bootstrap ({@link
 * io.sluice.cluster.NodeConfig}, {@link io.sluice.cluster.SluiceNode}), the protocol messages and
 * their Kryo serialization.
 */
package io.sluice.cluster;
