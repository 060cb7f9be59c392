package io.sluice.cluster.protocol;

/** Argument checks shared by the message constructors, so that a bad message fails where it is built. */
final class Checks {
    private Checks() {
    }

    static String nonBlank(String value, String name) {
        if (value == null) {
            throw new NullPointerException(name + " is null");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " is blank");
        }
        return value;
    }

    static int nonNegative(int value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + value);
        }
        return value;
    }
}
