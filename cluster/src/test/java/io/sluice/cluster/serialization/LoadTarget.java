package io.sluice.cluster.serialization;

/**
 * A class on the class path that is not on the wire list; loading it sets {@link LoadFlag#loaded}.
 * Tests name it only as a string, so nothing but a deserializer could load it.
 */
final class LoadTarget {
    static {
        LoadFlag.loaded = true;
    }

    private LoadTarget() {
    }
}
