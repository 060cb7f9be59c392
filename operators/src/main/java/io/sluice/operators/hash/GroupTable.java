package io.sluice.operators.hash;

import io.sluice.common.HashMix;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Int128;
import io.sluice.kernels.KeyHash;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.operators.memory.HeapSize;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Maps group keys to dense group ids with open addressing. Keys are hashed a column at a time
 * over primitive arrays, then each row probes once; stored keys live in growable typed arrays, so
 * no key object is made per row. NULL equals NULL here (grouping semantics); a join, where NULL
 * never matches, skips rows with NULL keys through the {@code skip} masks.
 *
 * <p>String keys are kept as UTF-8 bytes only (one byte array for all groups): a key that comes
 * as bytes (an Arrow vector) is hashed and compared on its bytes and never decoded; a key that
 * comes as a {@code String} is hashed and compared against the bytes without encoding it when it
 * is ASCII. The stored keys are written to Arrow as bytes ({@link #keyVector}); they are decoded
 * only when asked for as heap columns ({@link #keyColumns}: a partial aggregate's output, a spill run).
 *
 * <p>The hashes are {@link KeyHash}'s, deliberately not the shuffle's {@code HashPartitioner} hash.
 */
public final class GroupTable {
    private static final long NULL_HASH = 0x2545F4914F6CDD1DL;

    private final DataType[] types;
    private final KeyStore[] keys;
    // Per slot: the upper 32 bits of the key's hash, then group id + 1; 0 = empty. A probe reads
    // the stored keys only when the hash tags agree, so a miss touches one array.
    private long[] slots = new long[1024];
    // Each group's hash, for a rehash without the keys (not kept for the inline table of one long key).
    private long[] groupHashes;
    private int groupCount;
    // One long-backed key (an integer, date or decimal): the key sits in the slot next to its group
    // id, so a probe reads one place instead of the slot and then the stored key.
    private final boolean singleLong;
    private long[] inline; // [2 * slot] = key, [2 * slot + 1] = group id + 1; 0 = empty
    private int nullGroup = -1;
    // Tables of at least this many slots are past the caches: their probes load slots ahead (touch).
    private static final int TOUCH_MIN_SLOTS = 1 << 16;
    private static final int TOUCH_CHUNK = 256;
    /** What the touch loops read, kept so that their loads are not dead code. */
    private long touched;

    public GroupTable(DataType[] types) {
        this.types = types.clone();
        this.keys = new KeyStore[types.length];
        for (int i = 0; i < types.length; i++) {
            keys[i] = new KeyStore(types[i]);
        }
        // not a decimal past 18 digits: its columns may hold 128-bit values (no longs) in any batch
        this.singleLong = types.length == 1 && types[0].isLongBacked() && !types[0].isWideDecimal();
        if (singleLong) {
            inline = new long[2 * 1024];
            slots = null;
        } else {
            groupHashes = new long[256];
        }
    }

    public int groupCount() {
        return groupCount;
    }

    /** Estimated heap bytes: the slot and hash arrays and the stored keys (strings included). */
    public long heapBytes() {
        long bytes = singleLong ? HeapSize.longs(inline.length) : HeapSize.longs(slots.length) + HeapSize.longs(groupHashes.length);
        for (KeyStore k : keys) {
            bytes += k.heapBytes();
        }
        return bytes;
    }

    /** Group id of each row, adding new groups as they appear. */
    public int[] groupIds(Col[] keyCols, int rows) {
        return groupIds(keyCols, rows, null);
    }

    /** Group id of each row, adding new groups as they appear; -1 for rows where {@code skip} is set (may be null). */
    public int[] groupIds(Col[] keyCols, int rows, boolean[] skip) {
        return groupIds(keyCols, null, rows, skip);
    }

    /**
     * As {@link #groupIds(Col[], int, boolean[])}, where a string key may come as its UTF-8 bytes
     * ({@code utf8[k]} non-null stands for {@code keyCols[k]}, which may then be null; {@code utf8}
     * may be null): such a key is hashed and compared on its bytes and decoded only for a new group.
     */
    public int[] groupIds(Col[] keyCols, Utf8Bytes[] utf8, int rows, boolean[] skip) {
        return ids(keyCols, utf8, rows, skip, true, new int[rows], null);
    }

    /**
     * As {@link #groupIds(Col[], Utf8Bytes[], int, boolean[])} without a skip mask, into the
     * caller's arrays (an aggregate reuses them batch after batch): {@code ids} receives the group
     * ids and {@code hashes} (at least {@code rows} long) is scratch for the row hashes. Returns {@code ids}.
     */
    public int[] groupIds(Col[] keyCols, Utf8Bytes[] utf8, int rows, int[] ids, long[] hashes) {
        return ids(keyCols, utf8, rows, null, true, ids, hashes);
    }

    /** Whether the table takes {@link #groupIds(InPlaceValues, int, int[])}: one long-backed key of at most 18 digits. */
    public boolean takesInPlaceKey() {
        return singleLong;
    }

    /**
     * The group id of each row of one long-backed key read in place from its Arrow vector, adding
     * new groups as they appear, into {@code ids}; NULL rows meet in one group. Returns {@code ids}.
     */
    public int[] groupIds(InPlaceValues key, int rows, int[] ids) {
        if (!singleLong || key.doubles) {
            throw new IllegalStateException("an in-place key needs a table of one long-backed key");
        }
        if (findInPlace(key, rows, ids) != 0) {
            addMissing(key, rows, ids);
        }
        return ids;
    }

    /**
     * The group id of each row of one long-backed key read in place, or -1 where the table does not
     * have it; adds nothing. A NULL row gets the NULL group's id: -1 in a table that never added it
     * (a join's, whose NULL build keys are left out). Returns {@code ids}.
     */
    public int[] find(InPlaceValues key, int rows, int[] ids) {
        if (!singleLong || key.doubles) {
            throw new IllegalStateException("an in-place key needs a table of one long-backed key");
        }
        findInPlace(key, rows, ids);
        return ids;
    }

    /**
     * Looks up each row's key: its group id, or -1 when the table does not have it (yet); returns
     * how many rows missed. The loop has no branch for a miss: a table's new groups mostly come in
     * its first batch, which runs before the JIT profiles, so a branch for them would be compiled as
     * never taken and deoptimize this loop at the next table's first batch. The branch on the
     * result is the caller's, and {@link #addMissing} runs apart.
     */
    private int findInPlace(InPlaceValues key, int rows, int[] ids) {
        long data = key.data;
        int shift = key.shift;
        long validity = key.validity;
        long[] table = inline;
        int mask = (table.length >> 1) - 1;
        boolean touch = table.length >= 2 * TOUCH_MIN_SLOTS;
        int nullId = nullGroup;
        int missing = 0;
        for (int r = 0; r < rows; r++) {
            if (touch && r % TOUCH_CHUNK == 0) {
                touchInline(data, shift, r, Math.min(rows, r + TOUCH_CHUNK));
            }
            if (InPlaceValues.isNull(validity, r)) {
                ids[r] = nullId;
                missing += nullId >>> 31;
                continue;
            }
            long k = InPlaceValues.longAt(data, shift, r);
            int slot = slotOf(mix(k), mask);
            long entry;
            while (true) {
                entry = table[2 * slot + 1];
                long differ = table[2 * slot] ^ k;
                // go on while the slot is taken by another key; stop at the key or an empty slot
                if (((differ | -differ) & (entry | -entry)) >= 0) {
                    break;
                }
                slot = (slot + 1) & mask;
            }
            ids[r] = (int) entry - 1; // -1 for an empty slot
            missing += (int) ((entry - 1) >>> 63);
        }
        return missing;
    }

    /** Adds the groups of the rows {@link #findInPlace} missed ({@code ids[r] < 0}) and sets their ids. */
    private void addMissing(InPlaceValues key, int rows, int[] ids) {
        for (int r = 0; r < rows; r++) {
            if (ids[r] < 0) {
                ids[r] = key.isNull(r) ? nullGroup(true) : probeLong(key.longAt(r), true);
            }
        }
    }

    /**
     * Group id of each row's key, or -1 where the key is not in the table or {@code skip} is set
     * (may be null). Adds nothing. The key columns may be of other long-backed types than the
     * table's (an INT32 probe of an INT64 table), which hash and compare by value.
     */
    public int[] find(Col[] keyCols, int rows, boolean[] skip) {
        return ids(keyCols, null, rows, skip, false, new int[rows], null);
    }

    /** {@link #groupIds} ({@code insert}) or {@link #find}, into {@code ids}; {@code hashes} scratch, or null for a new array. */
    private int[] ids(Col[] keyCols, Utf8Bytes[] utf8, int rows, boolean[] skip, boolean insert, int[] ids, long[] hashes) {
        if (singleLong) {
            return singleLongIds(keyCols[0], rows, skip, insert, ids);
        }
        hashes = hashRows(keyCols, utf8, rows, hashes);
        long[] entries = slots.length >= TOUCH_MIN_SLOTS ? new long[TOUCH_CHUNK] : null;
        for (int r = 0; r < rows; r++) {
            if (entries != null && r % TOUCH_CHUNK == 0) {
                touch(hashes, r, Math.min(rows, r + TOUCH_CHUNK), entries);
            }
            ids[r] = skip != null && skip[r] ? -1 : probe(keyCols, utf8, r, hashes[r], insert);
        }
        return ids;
    }

    /**
     * Loads the slots of rows {@code [from, to)}, then the stored keys of the groups they hold,
     * ahead of the probes (see {@link #touchInline}): two loops without branches on the loaded
     * values, so their memory accesses overlap.
     */
    private void touch(long[] hashes, int from, int to, long[] entries) {
        long[] table = slots;
        int mask = table.length - 1;
        for (int r = from; r < to; r++) {
            entries[r - from] = table[slotOf(hashes[r], mask)];
        }
        long any = 0;
        for (KeyStore k : keys) {
            for (int r = from; r < to; r++) {
                any += k.touch(Math.max(0, idOf(entries[r - from])));
            }
        }
        touched = any;
    }

    /** {@link #groupIds} or {@link #find} ({@code insert} false) on the inline table of one long key. */
    private int[] singleLongIds(Col c, int rows, boolean[] skip, boolean insert, int[] ids) {
        long[] values = c.longs;
        boolean[] nulls = c.nulls;
        for (int r = 0; r < rows; r++) {
            if (values != null && r % TOUCH_CHUNK == 0 && inline.length >= 2 * TOUCH_MIN_SLOTS) {
                touchInline(values, r, Math.min(rows, r + TOUCH_CHUNK));
            }
            if (skip != null && skip[r]) {
                ids[r] = -1;
            } else if (nulls != null && nulls[r]) {
                ids[r] = nullGroup(insert);
            } else if (values == null) {
                // a probe key in 128-bit form (a wider decimal type than the table's): a value past a
                // long matches no key here; the table's own keys never take this form
                if (insert) {
                    throw new IllegalStateException("a 128-bit key cannot enter a table of long keys");
                }
                ids[r] = Int128.fitsLong(c.high(r), c.low(r)) ? probeLong(c.low(r), false) : -1;
            } else {
                ids[r] = probeLong(values[r], insert);
            }
        }
        return ids;
    }

    /** The NULL key's group of a table of one long key: added on first use ({@code insert}), else -1 until then. */
    private int nullGroup(boolean insert) {
        if (nullGroup < 0 && insert) {
            nullGroup = addLongGroup(0, true);
        }
        return nullGroup;
    }

    /** A new group of a table of one long key: its key, or NULL. */
    private int addLongGroup(long key, boolean isNull) {
        int id = groupCount++;
        keys[0].appendLong(id, key, isNull);
        return id;
    }

    /**
     * Loads the inline slots of rows {@code [from, to)} ahead of their probes. A table past the
     * caches costs a memory access per probe; the probe loop's branches keep the processor from
     * overlapping those accesses, while this loop has none, so its loads run side by side and the
     * probes then find their slots in cache.
     */
    private void touchInline(long[] values, int from, int to) {
        long[] table = inline;
        int mask = (table.length >> 1) - 1;
        long any = 0;
        for (int r = from; r < to; r++) {
            any += table[2 * slotOf(mix(values[r]), mask) + 1];
        }
        touched = any;
    }

    /** {@link #touchInline(long[], int, int)} for keys read in place ({@link InPlaceValues}); a NULL's unspecified value only loads some slot. */
    private void touchInline(long data, int shift, int from, int to) {
        long[] table = inline;
        int mask = (table.length >> 1) - 1;
        long any = 0;
        for (int r = from; r < to; r++) {
            any += table[2 * slotOf(mix(InPlaceValues.longAt(data, shift, r)), mask) + 1];
        }
        touched = any;
    }

    /** The group of one long key in the inline table; a new group ({@code insert}) or -1 when absent. */
    private int probeLong(long key, boolean insert) {
        long[] table = inline;
        int mask = (table.length >> 1) - 1;
        int slot = slotOf(mix(key), mask);
        while (true) {
            long id = table[2 * slot + 1];
            if (id == 0) {
                return insert ? addInline(key, slot) : -1;
            }
            if (table[2 * slot] == key) {
                return (int) id - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Adds a group for {@code key} at its free inline slot {@code slot}; the table may grow. */
    private int addInline(long key, int slot) {
        long[] table = inline;
        int added = addLongGroup(key, false);
        table[2 * slot] = key;
        table[2 * slot + 1] = added + 1L;
        if (groupCount * 2 > table.length >> 1) {
            rehashInline();
        }
        return added;
    }

    private void rehashInline() {
        long[] old = inline;
        long[] bigger = new long[old.length * 2];
        int mask = (bigger.length >> 1) - 1;
        for (int s = 0; s < old.length; s += 2) {
            if (old[s + 1] != 0) {
                int slot = slotOf(mix(old[s]), mask);
                while (bigger[2 * slot + 1] != 0) {
                    slot = (slot + 1) & mask;
                }
                bigger[2 * slot] = old[s];
                bigger[2 * slot + 1] = old[s + 1];
            }
        }
        inline = bigger;
    }

    private static int slotOf(long hash, int mask) {
        return (int) (hash ^ (hash >>> 32)) & mask;
    }

    private static int tag(long hash) {
        return (int) (hash >>> 32);
    }

    private static int idOf(long entry) {
        return (int) entry - 1;
    }

    private static long entry(long hash, int id) {
        return ((long) tag(hash) << 32) | ((id + 1) & 0xFFFF_FFFFL);
    }

    /** Per-row hashes of a batch of keys, one column at a time. */
    private static long[] hashRows(Col[] keyCols, Utf8Bytes[] utf8, int rows, long[] scratch) {
        long[] hashes;
        if (scratch == null) {
            hashes = new long[rows];
        } else {
            hashes = scratch;
            Arrays.fill(hashes, 0, rows, 0L);
        }
        for (int k = 0; k < keyCols.length; k++) {
            if (utf8 != null && utf8[k] != null) {
                hashInto(utf8[k], hashes, rows);
            } else {
                hashInto(keyCols[k], hashes, rows);
            }
        }
        return hashes;
    }

    /** The group of row {@code row}'s key; a new group ({@code insert}) or -1 when absent. */
    private int probe(Col[] keyCols, Utf8Bytes[] utf8, int row, long hash, boolean insert) {
        int mask = slots.length - 1;
        int slot = slotOf(hash, mask);
        int tag = tag(hash);
        while (true) {
            long entry = slots[slot];
            if (entry == 0) {
                if (!insert) {
                    return -1;
                }
                int id = addGroup(keyCols, utf8, row, hash);
                slots[slot] = entry(hash, id);
                if (groupCount * 2 > slots.length) {
                    rehash();
                }
                return id;
            }
            if ((int) (entry >>> 32) == tag && keysEqual(idOf(entry), keyCols, utf8, row, insert)) {
                return idOf(entry);
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Whether row {@code row}'s keys equal group {@code id}'s; {@code remember}: see {@link KeyStore#equalsRow(int, Col, int, boolean)}. */
    private boolean keysEqual(int id, Col[] keyCols, Utf8Bytes[] utf8, int row, boolean remember) {
        for (int k = 0; k < keys.length; k++) {
            if (utf8 != null && utf8[k] != null ? !keys[k].equalsRow(id, utf8[k], row)
                    : !keys[k].equalsRow(id, keyCols[k], row, remember)) {
                return false;
            }
        }
        return true;
    }

    private int addGroup(Col[] keyCols, Utf8Bytes[] utf8, int row, long hash) {
        int id = groupCount++;
        if (groupHashes != null) {
            if (id == groupHashes.length) {
                groupHashes = Arrays.copyOf(groupHashes, id * 2);
            }
            groupHashes[id] = hash;
        }
        for (int k = 0; k < keys.length; k++) {
            if (utf8 != null && utf8[k] != null) {
                keys[k].append(id, utf8[k], row);
            } else {
                keys[k].append(id, keyCols[k], row);
            }
        }
        return id;
    }

    /** Adds the single group of a global aggregate (no keys). */
    public int addEmptyKeyGroup() {
        if (keys.length != 0) {
            throw new IllegalStateException("only a keyless table has an empty-key group");
        }
        return probe(new Col[0], null, 0, 0, true);
    }

    private void rehash() {
        long[] bigger = new long[slots.length * 2];
        int mask = bigger.length - 1;
        for (int id = 0; id < groupCount; id++) {
            long h = groupHashes[id];
            int slot = slotOf(h, mask);
            while (bigger[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            bigger[slot] = entry(h, id);
        }
        slots = bigger;
    }

    /** The stored keys of groups {@code [from, from + count)} as columns. */
    public Col[] keyColumns(int from, int count) {
        Col[] out = new Col[keys.length];
        for (int k = 0; k < keys.length; k++) {
            out[k] = keys[k].toCol(from, count);
        }
        return out;
    }

    /** The stored keys of column {@code k} for groups {@code [from, from + count)} as a new Arrow vector owned by the caller. */
    public FieldVector keyVector(int k, int from, int count, String name, BufferAllocator allocator) {
        return keys[k].toVector(from, count, name, allocator);
    }

    /**
     * Folds one key column into the running per-row hashes. A NULL row folds in a constant and
     * never the value under its slot, which is unspecified (whatever a kernel left there), so all
     * NULLs of a column hash alike and meet in one group.
     */
    public static void hashInto(Col c, long[] hashes) {
        hashInto(c, hashes, hashes.length);
    }

    /** {@link #hashInto(Col, long[])} of the first {@code n} rows. */
    public static void hashInto(Col c, long[] hashes, int n) {
        boolean[] nulls = c.nulls;
        switch (c.type.kind()) {
            case FLOAT64 -> {
                double[] v = c.doubles;
                for (int i = 0; i < n; i++) {
                    double d = v[i] == 0.0 ? 0.0 : v[i];
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : Double.doubleToLongBits(d));
                }
            }
            case BOOL, NULL -> {
                boolean[] v = c.bools;
                for (int i = 0; i < n; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : v[i] ? 1 : 2);
                }
            }
            case UTF8 -> {
                // the hash of the UTF-8 bytes, as for a key read as bytes (the same value may come either way)
                String[] v = c.strings;
                for (int i = 0; i < n; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : KeyHash.string(v[i]));
                }
            }
            default -> {
                if (c.isWide()) {
                    // a value that fits a long hashes as that long, so both forms of one value agree
                    for (int i = 0; i < n; i++) {
                        hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : Int128.hashBits(c.highs[i], c.lows[i]));
                    }
                    return;
                }
                long[] v = c.longs;
                for (int i = 0; i < n; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : v[i]);
                }
            }
        }
    }

    /**
     * {@link #hashInto(Col, long[], int)} of a fixed-width column read in place: the same hash for
     * each value as its heap column gives (a decimal's unscaled long, a double's canonical bits).
     */
    public static void hashInto(InPlaceValues c, long[] hashes, int n) {
        long data = c.data;
        long validity = c.validity;
        if (c.doubles) {
            for (int i = 0; i < n; i++) {
                double d = InPlaceValues.doubleAt(data, i);
                hashes[i] = fold(hashes[i], InPlaceValues.isNull(validity, i) ? NULL_HASH
                        : Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
            }
            return;
        }
        int shift = c.shift;
        for (int i = 0; i < n; i++) {
            hashes[i] = fold(hashes[i], InPlaceValues.isNull(validity, i) ? NULL_HASH : InPlaceValues.longAt(data, shift, i));
        }
    }

    /** Folds a string key column, as UTF-8 bytes, into the running per-row hashes. */
    public static void hashInto(Utf8Bytes c, long[] hashes, int n) {
        byte[] data = c.data();
        int[] offsets = c.offsets();
        boolean[] nulls = c.nulls();
        for (int i = 0; i < n; i++) {
            hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : KeyHash.bytes(data, offsets[i], offsets[i + 1]));
        }
    }

    private static long fold(long running, long value) {
        return mix(running * 31 + value);
    }

    public static long mix(long h) {
        return HashMix.mix(h);
    }

    /** One key column's values by group id. */
    private static final class KeyStore {
        private final DataType type;
        private long[] longs;
        private double[] doubles;
        private boolean[] bools;
        /** High words of a decimal key of precision 19 to 38 (low words in {@code longs}). */
        private long[] highs;
        private boolean[] nulls = new boolean[256];
        // String keys as UTF-8 bytes, group after group: group id's bytes are [ends[id - 1], ends[id]).
        private byte[] utf8;
        private int[] utf8Ends;
        private int utf8Used;
        // For string keys that come as Strings: per group, the last String instance that compared
        // equal to its key (made on first use). Rows of a dictionary-decoded column share their
        // instances, so most compares end at the identity check instead of comparing chars with
        // bytes. Not kept for a group's first row: a table of distinct keys (a final phase) keeps
        // no Strings alive.
        private String[] knownEqual;
        private long knownEqualBytes;

        KeyStore(DataType type) {
            this.type = type;
            switch (type.kind()) {
                case FLOAT64 -> doubles = new double[256];
                case BOOL, NULL -> bools = new boolean[256];
                case UTF8 -> {
                    utf8 = new byte[4096];
                    utf8Ends = new int[256];
                }
                default -> longs = new long[256];
            }
            if (type.isWideDecimal()) {
                highs = new long[256];
            }
        }

        private void grow(int id) {
            if (id == nulls.length) {
                int size = id * 2;
                nulls = Arrays.copyOf(nulls, size);
                if (longs != null) longs = Arrays.copyOf(longs, size);
                if (highs != null) highs = Arrays.copyOf(highs, size);
                if (doubles != null) doubles = Arrays.copyOf(doubles, size);
                if (bools != null) bools = Arrays.copyOf(bools, size);
                if (utf8Ends != null) utf8Ends = Arrays.copyOf(utf8Ends, size);
                if (knownEqual != null) knownEqual = Arrays.copyOf(knownEqual, size);
            }
        }

        /**
         * Remembers {@code s} as equal to group {@code id}'s key, in place of the one before (the
         * latest dictionary's instance is the one the next rows share); its memory is counted, as
         * it is kept alive.
         */
        private void rememberEqual(int id, String s) {
            if (knownEqual == null) {
                knownEqual = new String[nulls.length];
            }
            String replaced = knownEqual[id];
            knownEqual[id] = s;
            knownEqualBytes += HeapSize.string(s) - (replaced == null ? 0 : HeapSize.string(replaced));
        }

        /** Reads group {@code id}'s stored key (its last byte, for a string), to have it in cache; any value. */
        long touch(int id) {
            if (utf8 != null) {
                int end = utf8Ends[id];
                return end + utf8[Math.max(0, end - 1)];
            }
            return longs != null ? longs[id] : 0;
        }

        private int utf8Start(int id) {
            return id == 0 ? 0 : utf8Ends[id - 1];
        }

        private void appendUtf8(int id, byte[] bytes, int from, int to) {
            int length = to - from;
            if (utf8Used + length > utf8.length) {
                utf8 = Arrays.copyOf(utf8, Math.max(utf8.length * 2, utf8Used + length));
            }
            System.arraycopy(bytes, from, utf8, utf8Used, length);
            utf8Used += length;
            utf8Ends[id] = utf8Used;
        }

        /** Appends a string key that arrives as UTF-8 bytes. */
        void append(int id, Utf8Bytes c, int row) {
            grow(id);
            if (c.isNull(row)) {
                nulls[id] = true;
                utf8Ends[id] = utf8Used;
                return;
            }
            appendUtf8(id, c.data(), c.start(row), c.end(row));
        }

        boolean equalsRow(int id, Utf8Bytes c, int row) {
            boolean rowNull = c.isNull(row);
            if (rowNull || nulls[id]) {
                return rowNull && nulls[id];
            }
            return KeyHash.equalBytes(utf8, utf8Start(id), utf8Ends[id], c.data(), c.start(row), c.end(row));
        }

        /** Appends a long-backed key (of at most 18 digits), or NULL. */
        void appendLong(int id, long key, boolean isNull) {
            grow(id);
            if (isNull) {
                nulls[id] = true;
            } else {
                longs[id] = key;
            }
        }

        void append(int id, Col c, int row) {
            grow(id);
            if (c.isNull(row)) {
                nulls[id] = true;
                if (utf8Ends != null) {
                    utf8Ends[id] = utf8Used;
                }
                return;
            }
            switch (type.kind()) {
                case FLOAT64 -> doubles[id] = c.doubles[row];
                case BOOL, NULL -> bools[id] = c.bools[row];
                case UTF8 -> {
                    byte[] bytes = c.strings[row].getBytes(StandardCharsets.UTF_8);
                    appendUtf8(id, bytes, 0, bytes.length);
                }
                default -> {
                    if (highs != null) {
                        highs[id] = c.high(row);
                        longs[id] = c.low(row);
                    } else {
                        longs[id] = c.longs[row];
                    }
                }
            }
        }

        public long heapBytes() {
            int n = nulls.length;
            long values = utf8 != null ? HeapSize.ints(n) + utf8.length + 16
                    + (knownEqual != null ? HeapSize.references(n) + knownEqualBytes : 0)
                    : longs != null || doubles != null ? HeapSize.longs(n) * (highs != null ? 2 : 1) : HeapSize.booleans(n);
            return HeapSize.booleans(n) + values;
        }

        /**
         * Whether row {@code row} of {@code c} equals group {@code id}'s key. {@code remember}: a
         * String found equal is kept for the identity check (grouping, whose table counts it); a
         * lookup (a join's probe, whose table was reserved once when built) keeps nothing.
         */
        boolean equalsRow(int id, Col c, int row, boolean remember) {
            if (highs != null || c.isWide()) {
                return equalsWide(id, c, row); // also a probe of another precision (one scale) against these keys
            }
            if (longs != null && c.nulls == null) {
                return !nulls[id] && longs[id] == c.longs[row];
            }
            boolean rowNull = c.isNull(row);
            if (rowNull || nulls[id]) {
                return rowNull && nulls[id];
            }
            return switch (type.kind()) {
                case FLOAT64 -> Double.compare(doubles[id] == 0.0 ? 0.0 : doubles[id],
                        c.doubles[row] == 0.0 ? 0.0 : c.doubles[row]) == 0;
                case BOOL, NULL -> bools[id] == c.bools[row];
                case UTF8 -> equalsString(id, c.strings[row], remember);
                default -> longs[id] == c.longs[row];
            };
        }

        private boolean equalsString(int id, String s, boolean remember) {
            if (knownEqual != null && knownEqual[id] == s) {
                return true;
            }
            if (!KeyHash.equalsUtf8(s, utf8, utf8Start(id), utf8Ends[id])) {
                return false;
            }
            if (remember) {
                rememberEqual(id, s);
            }
            return true;
        }

        private boolean equalsWide(int id, Col c, int row) {
            boolean rowNull = c.isNull(row);
            if (rowNull || nulls[id]) {
                return rowNull && nulls[id];
            }
            long high = highs != null ? highs[id] : longs[id] >> 63;
            return high == c.high(row) && longs[id] == c.low(row);
        }

        /** Groups {@code [from, from + count)} as a heap column (string keys decoded here). */
        Col toCol(int from, int count) {
            boolean[] outNulls = Arrays.copyOfRange(nulls, from, from + count);
            if (highs != null) {
                return Col.ofInt128(type, Arrays.copyOfRange(highs, from, from + count),
                        Arrays.copyOfRange(longs, from, from + count), outNulls);
            }
            return switch (type.kind()) {
                case FLOAT64 -> Col.ofDoubles(Arrays.copyOfRange(doubles, from, from + count), outNulls);
                case BOOL, NULL -> Col.ofBools(Arrays.copyOfRange(bools, from, from + count), outNulls)
                        .withType(type);
                case UTF8 -> {
                    String[] strings = new String[count];
                    for (int i = 0; i < count; i++) {
                        int id = from + i;
                        if (!nulls[id]) {
                            int start = utf8Start(id);
                            strings[i] = new String(utf8, start, utf8Ends[id] - start, StandardCharsets.UTF_8);
                        }
                    }
                    yield Col.ofStrings(strings, outNulls);
                }
                default -> Col.ofLongs(type, Arrays.copyOfRange(longs, from, from + count), outNulls);
            };
        }

        /**
         * Groups {@code [from, from + count)} as a new Arrow vector owned by the caller: string keys
         * copied as bytes (one bulk copy of the data, offsets rebased), never decoded.
         */
        FieldVector toVector(int from, int count, String name, BufferAllocator allocator) {
            if (utf8 == null) {
                return toCol(from, count).write(name, allocator);
            }
            VarCharVector v = (VarCharVector) new Field(name, type).toArrow().createVector(allocator);
            try {
                int start = utf8Start(from);
                int bytes = count == 0 ? 0 : utf8Ends[from + count - 1] - start;
                v.allocateNew(Math.max(1, bytes), Math.max(1, count));
                if (bytes > 0) {
                    MemoryUtil.copyToMemory(utf8, start, v.getDataBuffer().memoryAddress(), bytes);
                }
                ArrowBuf offsets = v.getOffsetBuffer();
                ArrowBuf validity = v.getValidityBuffer();
                offsets.setInt(0, 0);
                for (int i = 0; i < count; i++) {
                    offsets.setInt((long) (i + 1) * 4, utf8Ends[from + i] - start);
                    if (!nulls[from + i]) {
                        BitVectorHelper.setBit(validity, i);
                    }
                }
                v.setLastSet(count - 1);
                v.setValueCount(count);
                return v;
            } catch (RuntimeException e) {
                v.close();
                throw e;
            }
        }
    }
}
