package io.sluice.cluster.serialization;

/** Set by {@link LoadTarget}'s static initializer: a test proves hostile bytes never got it loaded. */
final class LoadFlag {
    static volatile boolean loaded;

    private LoadFlag() {
    }
}
