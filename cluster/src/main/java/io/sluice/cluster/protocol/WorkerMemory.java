package io.sluice.cluster.protocol;

/**
 * A worker's task memory when it reports a task: bytes its tasks have reserved now, and its
 * limit. Sent with each {@link TaskFinished} so that the coordinator can show and export it
 * without a heartbeat of its own.
 */
public record WorkerMemory(long usedBytes, long limitBytes) implements SluiceMessage {
}
