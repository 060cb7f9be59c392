package io.sluice.cluster;

import java.util.Locale;

/** The cluster role a node takes; the role name is what Pekko Cluster sees. */
public enum NodeRole {
    COORDINATOR, WORKER;

    /** The name in {@code pekko.cluster.roles}: {@code "coordinator"} or {@code "worker"}. */
    public String roleName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
