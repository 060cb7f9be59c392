package io.sluice.cluster.protocol;

import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/** Receptionist keys under which nodes find each other's actors. */
public final class ServiceKeys {
    /** The coordinator's actor; workers subscribe to it to register themselves. */
    public static final ServiceKey<CoordinatorCommand> COORDINATOR =
            ServiceKey.create(CoordinatorCommand.class, "sluice-coordinator");

    private ServiceKeys() {
    }
}
