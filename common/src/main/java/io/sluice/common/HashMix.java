package io.sluice.common;

/**
 * The 64-bit finalizer every engine hash ends with: the operators' hash tables ({@code KeyHash}),
 * the shuffle's hash partitioner and the optimizer's plan signatures. One function, so hashes that
 * must agree do.
 */
public final class HashMix {
    private HashMix() {
    }

    /** murmur3's fmix64: every input bit moves every output bit. */
    public static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
