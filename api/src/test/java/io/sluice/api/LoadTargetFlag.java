package io.sluice.api;

/** Set by {@link LoadTarget}'s static initializer. */
final class LoadTargetFlag {
    static volatile boolean loaded;

    private LoadTargetFlag() {
    }
}
