package io.sluice.common;

/**
 * The mix and fold every engine hash is built from: the key hashes of the operators' hash tables
 * and the shuffle's partitioner ({@code KeyHash}, in kernels) and the optimizer's plan signatures.
 * One definition, so hashes that must agree do; it lives here because the optimizer sees no kernel.
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

    /** Folds one value's hash into a running hash (row of keys, or a plan's parts). */
    public static long fold(long running, long value) {
        return mix(running * 31 + value);
    }
}
