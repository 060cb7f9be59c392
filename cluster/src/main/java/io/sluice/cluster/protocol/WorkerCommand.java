package io.sluice.cluster.protocol;

/** Messages a worker's actor accepts. */
public interface WorkerCommand extends SluiceMessage {
}
