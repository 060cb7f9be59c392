package io.sluice.cluster.protocol;

/** Messages the coordinator's actor accepts. */
public interface CoordinatorCommand extends SluiceMessage {
}
