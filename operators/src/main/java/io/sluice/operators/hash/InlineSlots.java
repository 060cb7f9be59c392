package io.sluice.operators.hash;

import static io.sluice.common.HashMix.mix;

import io.sluice.kernels.InPlaceValues;
import io.sluice.operators.memory.HeapSize;

/**
 * The open-addressing slots of a {@link GroupTable} whose whole key is one long (a long-backed
 * key, or short keys packed into one: {@link PackedKeys}): each slot holds the key next to its
 * group id, so a probe reads one place instead of a slot and then a stored key. Doubles at half
 * full. A table past the caches loads the slots of a run of rows ahead of their probes
 * ({@link #touch}). The slots know keys and ids only; the groups' keys are the table's.
 */
final class InlineSlots {
    /** Tables of at least this many slots are past the caches: their probes load slots ahead (touch). */
    static final int TOUCH_MIN_SLOTS = 1 << 16;
    static final int TOUCH_CHUNK = 256;

    private static final int INITIAL_SLOTS = 1024;
    /** No previous row's slot entry in {@link #find} (entries are group id + 1, or 0). */
    private static final long NO_ENTRY = -1;

    private long[] table = new long[2 * INITIAL_SLOTS]; // [2 * slot] = key, [2 * slot + 1] = group id + 1; 0 = empty
    /** What the touch loops read, kept so that their loads are not dead code. */
    private long touched;

    /**
     * Bytes of the slots once they hold {@code groups} groups: they double from
     * {@value #INITIAL_SLOTS} slots of two longs while more than half would be taken ({@link #put}).
     */
    static long bytesFor(long groups) {
        long slots = INITIAL_SLOTS;
        while (groups * 2 > slots) {
            slots *= 2;
        }
        return slots * 2 * Long.BYTES;
    }

    long heapBytes() {
        return HeapSize.longs(table.length);
    }

    /** Whether the slots are past the caches, so that probes gain from loading them ahead ({@link #touch}). */
    boolean large() {
        return table.length >= 2 * TOUCH_MIN_SLOTS;
    }

    /**
     * Looks up each row of one long-backed key read in place: its group id, or -1 when the slots
     * do not have it (yet); a NULL row gets {@code nullId}. Returns how many rows missed (-1 ids).
     * The loop has no branch for a miss: a table's new groups mostly come in its first batch,
     * which runs before the JIT profiles, so a branch for them would be compiled as never taken
     * and deoptimize this loop at the next table's first batch. The branch on the result is the
     * caller's, which adds the missing groups apart.
     *
     * <p>A row whose key is the previous non-NULL row's takes that row's answer without a probe:
     * keys clustered in the input (q18's {@code l_orderkey}, a few lines per order in a row) probe
     * once per run. Keys in no order rarely repeat, so the check is a branch predicted not taken.
     */
    int find(InPlaceValues key, int rows, int[] ids, int nullId) {
        long data = key.data;
        int shift = key.shift;
        long validity = key.validity;
        long[] slots = table;
        int mask = (slots.length >> 1) - 1;
        boolean touch = large();
        int missing = 0;
        long previousKey = 0;
        long previousEntry = NO_ENTRY;
        for (int r = 0; r < rows; r++) {
            if (touch && r % TOUCH_CHUNK == 0) {
                touch(data, shift, r, Math.min(rows, r + TOUCH_CHUNK));
            }
            if (InPlaceValues.isNull(validity, r)) {
                ids[r] = nullId;
                missing += nullId >>> 31;
                continue;
            }
            long k = InPlaceValues.longAt(data, shift, r);
            long entry = k == previousKey && previousEntry != NO_ENTRY ? previousEntry : entry(slots, mask, k);
            previousKey = k;
            previousEntry = entry;
            ids[r] = (int) entry - 1; // -1 for an empty slot
            missing += (int) ((entry - 1) >>> 63);
        }
        return missing;
    }

    /** {@link #find(InPlaceValues, int, int[], int)} of the keys {@code keys[0, rows)} (packed keys: no NULL). */
    int find(long[] keys, int rows, int[] ids) {
        long[] slots = table;
        int mask = (slots.length >> 1) - 1;
        boolean touch = large();
        int missing = 0;
        for (int r = 0; r < rows; r++) {
            if (touch && r % TOUCH_CHUNK == 0) {
                touch(keys, r, Math.min(rows, r + TOUCH_CHUNK));
            }
            long entry = entry(slots, mask, keys[r]);
            ids[r] = (int) entry - 1;
            missing += (int) ((entry - 1) >>> 63);
        }
        return missing;
    }

    /** The slot entry of key {@code k}: its group id + 1, or 0 when the slots do not have it. */
    private static long entry(long[] slots, int mask, long k) {
        int slot = slotOf(k, mask);
        while (true) {
            long entry = slots[2 * slot + 1];
            long differ = slots[2 * slot] ^ k;
            // go on while the slot is taken by another key; stop at the key or an empty slot
            if (((differ | -differ) & (entry | -entry)) >= 0) {
                return entry;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** The group id of {@code key}, or {@code -1 - slot} when absent, {@code slot} being the free slot to {@link #put} it in. */
    int lookup(long key) {
        long[] slots = table;
        int mask = (slots.length >> 1) - 1;
        int slot = slotOf(key, mask);
        while (true) {
            long id = slots[2 * slot + 1];
            if (id == 0) {
                return -1 - slot;
            }
            if (slots[2 * slot] == key) {
                return (int) id - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Puts {@code key}, of group {@code id}, in its free slot {@code slot} ({@link #lookup}); grows once {@code groups} fill half the slots. */
    void put(int slot, long key, int id, int groups) {
        table[2 * slot] = key;
        table[2 * slot + 1] = id + 1L;
        if (groups * 2 > table.length >> 1) {
            grow();
        }
    }

    private void grow() {
        long[] old = table;
        long[] bigger = new long[old.length * 2];
        int mask = (bigger.length >> 1) - 1;
        for (int s = 0; s < old.length; s += 2) {
            if (old[s + 1] != 0) {
                int slot = slotOf(old[s], mask);
                while (bigger[2 * slot + 1] != 0) {
                    slot = (slot + 1) & mask;
                }
                bigger[2 * slot] = old[s];
                bigger[2 * slot + 1] = old[s + 1];
            }
        }
        table = bigger;
    }

    /**
     * Loads the slots of keys {@code [from, to)} ahead of their probes. A table past the caches
     * costs a memory access per probe; the probe loop's branches keep the processor from
     * overlapping those accesses, while this loop has none, so its loads run side by side and the
     * probes then find their slots in cache.
     */
    void touch(long[] keys, int from, int to) {
        long[] slots = table;
        int mask = (slots.length >> 1) - 1;
        long any = 0;
        for (int r = from; r < to; r++) {
            any += slots[2 * slotOf(keys[r], mask) + 1];
        }
        touched = any;
    }

    /** {@link #touch(long[], int, int)} for keys read in place ({@link InPlaceValues}); a NULL's unspecified value only loads some slot. */
    private void touch(long data, int shift, int from, int to) {
        long[] slots = table;
        int mask = (slots.length >> 1) - 1;
        long any = 0;
        for (int r = from; r < to; r++) {
            any += slots[2 * slotOf(InPlaceValues.longAt(data, shift, r), mask) + 1];
        }
        touched = any;
    }

    private static int slotOf(long key, int mask) {
        return GroupTable.slotOf(mix(key), mask);
    }
}
