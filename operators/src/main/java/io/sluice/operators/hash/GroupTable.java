package io.sluice.operators.hash;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Int128;
import io.sluice.kernels.KeyHash;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

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
 * <p>Keys short enough to pack into one long (strings of a few bytes, with at most one 32-bit
 * integer: {@link PackedKeys}) are kept inline as a single long key is, the packed long being the
 * key, until a batch brings one that does not pack.
 *
 * <p>The stored keys, and how a row compares with them, are each column's {@link KeyStore}. The
 * hashes are {@link KeyHash}'s table hashes, which do not correlate with the shuffle's partition hash.
 */
public final class GroupTable {
    private final DataType[] types;
    private final KeyStore[] keys;
    private static final int INITIAL_SLOTS = 1024;
    // Per slot: the upper 32 bits of the key's hash, then group id + 1; 0 = empty. A probe reads
    // the stored keys only when the hash tags agree, so a miss touches one array.
    private long[] slots = new long[INITIAL_SLOTS];
    // Each group's hash, for a rehash without the keys (not kept for the inline table of one long key).
    private long[] groupHashes;
    private int groupCount;
    // One long-backed key (an integer, date or decimal): the key sits in the slot next to its group
    // id, so a probe reads one place instead of the slot and then the stored key.
    private final boolean singleLong;
    private InlineSlots inline; // the slots while the key is one long (singleLong, or packed)
    // Short keys packed into one long (PackedKeys), kept inline as one long key is; null when the
    // keys do not pack, or once a batch brought a key too long to pack (the table then hashes).
    private PackedKeys packed;
    private int nullGroup = -1;
    /** What the touch loop reads, kept so that its loads are not dead code. */
    private long touched;

    public GroupTable(DataType[] types) {
        this.types = types.clone();
        this.keys = new KeyStore[types.length];
        for (int i = 0; i < types.length; i++) {
            keys[i] = new KeyStore(types[i]);
        }
        // not a decimal past 18 digits: its columns may hold 128-bit values (no longs) in any batch
        this.singleLong = types.length == 1 && types[0].isLongBacked() && !types[0].isWideDecimal();
        this.packed = singleLong ? null : PackedKeys.of(types);
        if (singleLong || packed != null) {
            inline = new InlineSlots();
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
        long bytes = inline != null ? inline.heapBytes() : HeapSize.longs(slots.length) + HeapSize.longs(groupHashes.length);
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
        if (inline.find(key, rows, ids, nullGroup) != 0) {
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
        inline.find(key, rows, ids, nullGroup);
        return ids;
    }

    /** Whether the table takes {@link #groupIds(FieldVector[], int, int[], long[])}: its keys pack into one long ({@link PackedKeys}). */
    public boolean packsKeys() {
        return packed != null;
    }

    /**
     * The group id of each row of the key vectors (one per key column, as the batch holds them),
     * adding new groups as they appear, into {@code ids}, with {@code scratch} (at least {@code rows}
     * long) for the packed keys: true when the keys packed. False when a key does not pack (a
     * longer string): the table then leaves the packed form for good, keeping its groups, and the
     * caller groups the batch through {@link #groupIds(Col[], Utf8Bytes[], int, int[], long[])}.
     */
    public boolean groupIds(FieldVector[] keyVectors, int rows, int[] ids, long[] scratch) {
        if (packed == null) {
            return false;
        }
        if (!packed.pack(keyVectors, rows, scratch)) {
            leaveInline();
            return false;
        }
        int missing = inline.find(scratch, rows, ids);
        for (int r = 0; r < rows && missing > 0; r++) {
            if (ids[r] < 0) {
                ids[r] = probeLong(scratch[r], true);
                missing--;
            }
        }
        return true;
    }

    /**
     * Leaves the inline table of packed keys for hashed slots over the stored keys, keeping every
     * group and its id. The groups' hashes come from the stored keys as they are (a string's bytes,
     * never decoded: bytes that are not valid UTF-8 would decode to others), as a row's are hashed.
     */
    private void leaveInline() {
        int n = groupCount;
        long[] hashes = new long[Math.max(256, n)];
        for (KeyStore k : keys) {
            k.hashInto(hashes, n);
        }
        groupHashes = hashes;
        int size = INITIAL_SLOTS;
        while (n * 2 > size) {
            size *= 2;
        }
        rehash(size);
        inline = null;
        packed = null;
    }

    /**
     * Adds the groups of the rows {@link InlineSlots#find} missed ({@code ids[r] < 0}) and sets their
     * ids; a row whose key is the previous row's (a new key's run in clustered input) takes the group
     * that row just got, without a probe.
     */
    private void addMissing(InPlaceValues key, int rows, int[] ids) {
        for (int r = 0; r < rows; r++) {
            if (ids[r] >= 0) {
                continue;
            }
            if (key.isNull(r)) {
                ids[r] = nullGroup(true);
            } else if (r > 0 && !key.isNull(r - 1) && key.longAt(r) == key.longAt(r - 1)) {
                ids[r] = ids[r - 1];
            } else {
                ids[r] = probeLong(key.longAt(r), true);
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
        if (packed != null) {
            leaveInline();
        }
        hashes = hashRows(keyCols, utf8, rows, hashes);
        long[] entries = slots.length >= InlineSlots.TOUCH_MIN_SLOTS ? new long[InlineSlots.TOUCH_CHUNK] : null;
        for (int r = 0; r < rows; r++) {
            if (entries != null && r % InlineSlots.TOUCH_CHUNK == 0) {
                touch(hashes, r, Math.min(rows, r + InlineSlots.TOUCH_CHUNK), entries);
            }
            ids[r] = skip != null && skip[r] ? -1 : probe(keyCols, utf8, r, hashes[r], insert);
        }
        return ids;
    }

    /**
     * Loads the slots of rows {@code [from, to)}, then the stored keys of the groups they hold,
     * ahead of the probes (see {@link InlineSlots#touch}): two loops without branches on the loaded
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
            if (values != null && r % InlineSlots.TOUCH_CHUNK == 0 && inline.large()) {
                inline.touch(values, r, Math.min(rows, r + InlineSlots.TOUCH_CHUNK));
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

    /** The group of one long key in the inline table; a new group ({@code insert}) or -1 when absent. */
    private int probeLong(long key, boolean insert) {
        int found = inline.lookup(key);
        if (found >= 0 || !insert) {
            return Math.max(found, -1);
        }
        int added;
        if (packed != null) {
            added = groupCount++;
            packed.append(key, added, keys);
        } else {
            added = addLongGroup(key, false);
        }
        inline.put(-1 - found, key, added, groupCount);
        return added;
    }

    static int slotOf(long hash, int mask) {
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
                KeyHash.hashInto(utf8[k], hashes, rows);
            } else {
                KeyHash.hashInto(keyCols[k], hashes, rows);
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
                    rehash(slots.length * 2);
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

    /** New slots of {@code size} (a power of two) for the groups so far, from their hashes. */
    private void rehash(int size) {
        long[] bigger = new long[size];
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
}
