package io.sluice.cluster.serialization;

/** Set by {@link LoadTarget}'s static initializer: a test proves hostile bytes never got it loaded. */
public final class LoadFlag {
    public static volatile boolean loaded;

    private LoadFlag() {
    }
}
