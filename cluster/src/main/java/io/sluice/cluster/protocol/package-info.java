/**
 * Messages between coordinator and workers. Every message implements {@link
 * io.sluice.cluster.protocol.SluiceMessage} and travels Kryo-serialized; constructors validate, so a
 * malformed message fails on the sending side.
 */
package io.sluice.cluster.protocol;
