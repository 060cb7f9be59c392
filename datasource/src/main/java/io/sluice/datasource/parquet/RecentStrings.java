package io.sluice.datasource.parquet;

import org.apache.parquet.io.api.Binary;

/**
 * Strings decoded from recently seen Binary objects, by identity. A dictionary page hands out the
 * same Binary for every row with the same value, so each distinct value is decoded (and its String
 * hash computed) once instead of once per row. Plain pages make a Binary per value and simply miss.
 * One per column reader; not thread-safe.
 */
final class RecentStrings {
    private static final int SIZE = 1024;
    private final Binary[] binaries = new Binary[SIZE];
    private final String[] strings = new String[SIZE];

    String of(Binary binary) {
        int slot = System.identityHashCode(binary) & (SIZE - 1);
        if (binaries[slot] == binary) {
            return strings[slot];
        }
        String value = binary.toStringUsingUTF8();
        binaries[slot] = binary;
        strings[slot] = value;
        return value;
    }
}
