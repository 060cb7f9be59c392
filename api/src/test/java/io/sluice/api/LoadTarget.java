package io.sluice.api;

/**
 * A class on the coordinator's class path that no wire format may name; loading it sets
 * {@link LoadTargetFlag#loaded}. Tests name it only as a string.
 */
final class LoadTarget {
    static {
        LoadTargetFlag.loaded = true;
    }

    private LoadTarget() {
    }
}
