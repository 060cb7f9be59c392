package io.sluice.plan.operators;

import io.sluice.plan.exec.Col;
import io.sluice.plan.exec.Int128;
import io.sluice.plan.exec.Utf8Bytes;
import io.sluice.plan.memory.HeapSize;
import io.sluice.plan.types.DataType;
import java.util.Arrays;

/**
 * Maps group keys to dense group ids with open addressing. Keys are hashed a column at a time
 * over primitive arrays, then each row probes once; stored keys live in growable typed arrays, so
 * no key object is made per row. NULL equals NULL here (grouping semantics); a join, where NULL
 * never matches, skips rows with NULL keys through the {@code skip} masks.
 *
 * <p>The hash is deliberately not the shuffle's {@code HashPartitioner} hash: the rows of one
 * hash partition share their partition hash modulo n, which would crowd a table indexed by it.
 */
final class GroupTable {
    private static final long NULL_HASH = 0x2545F4914F6CDD1DL;

    private final DataType[] types;
    private final KeyStore[] keys;
    // Per slot: the upper 32 bits of the key's hash, then group id + 1; 0 = empty. A probe reads
    // the stored keys only when the hash tags agree, so a miss touches one array.
    private long[] slots = new long[1024];
    private long[] groupHashes = new long[256];
    private int groupCount;
    // One long-backed key (an integer, date or decimal): the key sits in the slot next to its group
    // id, so a probe reads one place instead of the slot and then the stored key.
    private final boolean singleLong;
    private long[] inline; // [2 * slot] = key, [2 * slot + 1] = group id + 1; 0 = empty
    private int nullGroup = -1;
    private final Col[] oneKey = new Col[1];

    GroupTable(DataType[] types) {
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
        }
    }

    int groupCount() {
        return groupCount;
    }

    /** Estimated heap bytes: the slot and hash arrays and the stored keys (strings included). */
    long heapBytes() {
        long bytes = HeapSize.longs(singleLong ? inline.length : slots.length) + HeapSize.longs(groupHashes.length);
        for (KeyStore k : keys) {
            bytes += k.heapBytes();
        }
        return bytes;
    }

    /** Group id of each row, adding new groups as they appear. */
    int[] groupIds(Col[] keyCols, int rows) {
        return groupIds(keyCols, rows, null);
    }

    /** Group id of each row, adding new groups as they appear; -1 for rows where {@code skip} is set (may be null). */
    int[] groupIds(Col[] keyCols, int rows, boolean[] skip) {
        return groupIds(keyCols, null, rows, skip);
    }

    /**
     * As {@link #groupIds(Col[], int, boolean[])}, where a string key may come as its UTF-8 bytes
     * ({@code utf8[k]} non-null stands for {@code keyCols[k]}, which may then be null; {@code utf8}
     * may be null): such a key is hashed and compared on its bytes and decoded only for a new group.
     */
    int[] groupIds(Col[] keyCols, Utf8Bytes[] utf8, int rows, boolean[] skip) {
        if (singleLong) {
            return singleLongIds(keyCols[0], rows, skip, true);
        }
        long[] hashes = hashRows(keyCols, utf8, rows);
        int[] ids = new int[rows];
        for (int r = 0; r < rows; r++) {
            ids[r] = skip != null && skip[r] ? -1 : findOrInsert(keyCols, utf8, r, hashes[r]);
        }
        return ids;
    }

    /**
     * Group id of each row's key, or -1 where the key is not in the table or {@code skip} is set
     * (may be null). Adds nothing. The key columns may be of other long-backed types than the
     * table's (an INT32 probe of an INT64 table), which hash and compare by value.
     */
    int[] find(Col[] keyCols, int rows, boolean[] skip) {
        if (singleLong) {
            return singleLongIds(keyCols[0], rows, skip, false);
        }
        long[] hashes = hashRows(keyCols, null, rows);
        int[] ids = new int[rows];
        long[] table = slots;
        int mask = table.length - 1;
        for (int r = 0; r < rows; r++) {
            if (skip != null && skip[r]) {
                ids[r] = -1;
                continue;
            }
            long hash = hashes[r];
            int tag = tag(hash);
            int slot = slotOf(hash, mask);
            int found = -1;
            long entry;
            while ((entry = table[slot]) != 0) {
                if ((int) (entry >>> 32) == tag && keysEqual(idOf(entry), keyCols, null, r)) {
                    found = idOf(entry);
                    break;
                }
                slot = (slot + 1) & mask;
            }
            ids[r] = found;
        }
        return ids;
    }

    /** {@link #groupIds} or {@link #find} ({@code insert} false) on the inline table of one long key. */
    private int[] singleLongIds(Col c, int rows, boolean[] skip, boolean insert) {
        long[] values = c.longs;
        boolean[] nulls = c.nulls;
        int[] ids = new int[rows];
        for (int r = 0; r < rows; r++) {
            if (skip != null && skip[r]) {
                ids[r] = -1;
            } else if (nulls != null && nulls[r]) {
                if (nullGroup < 0 && insert) {
                    oneKey[0] = c;
                    nullGroup = addGroup(oneKey, null, r, NULL_HASH);
                    oneKey[0] = null;
                }
                ids[r] = nullGroup;
            } else if (values == null) {
                // a probe key in 128-bit form (a wider decimal type than the table's): a value past a
                // long matches no key here; the table's own keys never take this form
                if (insert) {
                    throw new IllegalStateException("a 128-bit key cannot enter a table of long keys");
                }
                ids[r] = Int128.fitsLong(c.high(r), c.low(r)) ? findLong(c.low(r)) : -1;
            } else {
                ids[r] = insert ? findOrInsertLong(c, r, values[r]) : findLong(values[r]);
            }
        }
        return ids;
    }

    private int findLong(long key) {
        long[] table = inline;
        int mask = (table.length >> 1) - 1;
        long hash = mix(key);
        int slot = slotOf(hash, mask);
        while (true) {
            long id = table[2 * slot + 1];
            if (id == 0) {
                return -1;
            }
            if (table[2 * slot] == key) {
                return (int) id - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    private int findOrInsertLong(Col c, int row, long key) {
        long[] table = inline;
        int mask = (table.length >> 1) - 1;
        long hash = mix(key);
        int slot = slotOf(hash, mask);
        while (true) {
            long id = table[2 * slot + 1];
            if (id == 0) {
                oneKey[0] = c;
                int added = addGroup(oneKey, null, row, hash);
                oneKey[0] = null;
                table[2 * slot] = key;
                table[2 * slot + 1] = added + 1L;
                if (groupCount * 2 > mask + 1) {
                    rehashInline();
                }
                return added;
            }
            if (table[2 * slot] == key) {
                return (int) id - 1;
            }
            slot = (slot + 1) & mask;
        }
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
    private static long[] hashRows(Col[] keyCols, Utf8Bytes[] utf8, int rows) {
        long[] hashes = new long[rows];
        for (int k = 0; k < keyCols.length; k++) {
            if (utf8 != null && utf8[k] != null) {
                hashInto(utf8[k], hashes);
            } else {
                hashInto(keyCols[k], hashes);
            }
        }
        return hashes;
    }

    private int findOrInsert(Col[] keyCols, Utf8Bytes[] utf8, int row, long hash) {
        int mask = slots.length - 1;
        int slot = slotOf(hash, mask);
        int tag = tag(hash);
        while (true) {
            long entry = slots[slot];
            if (entry == 0) {
                int id = addGroup(keyCols, utf8, row, hash);
                slots[slot] = entry(hash, id);
                if (groupCount * 2 > slots.length) {
                    rehash();
                }
                return id;
            }
            if ((int) (entry >>> 32) == tag && keysEqual(idOf(entry), keyCols, utf8, row)) {
                return idOf(entry);
            }
            slot = (slot + 1) & mask;
        }
    }

    private boolean keysEqual(int id, Col[] keyCols, Utf8Bytes[] utf8, int row) {
        for (int k = 0; k < keys.length; k++) {
            if (utf8 != null && utf8[k] != null ? !keys[k].equalsRow(id, utf8[k], row)
                    : !keys[k].equalsRow(id, keyCols[k], row)) {
                return false;
            }
        }
        return true;
    }

    private int addGroup(Col[] keyCols, Utf8Bytes[] utf8, int row, long hash) {
        int id = groupCount++;
        if (id == groupHashes.length) {
            groupHashes = Arrays.copyOf(groupHashes, id * 2);
        }
        groupHashes[id] = hash;
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
    int addEmptyKeyGroup() {
        if (keys.length != 0) {
            throw new IllegalStateException("only a keyless table has an empty-key group");
        }
        return findOrInsert(new Col[0], null, 0, 0);
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
    Col[] keyColumns(int from, int count) {
        Col[] out = new Col[keys.length];
        for (int k = 0; k < keys.length; k++) {
            out[k] = keys[k].toCol(from, count);
        }
        return out;
    }

    /**
     * Folds one key column into the running per-row hashes. A NULL row folds in a constant and
     * never the value under its slot, which is unspecified (whatever a kernel left there), so all
     * NULLs of a column hash alike and meet in one group.
     */
    static void hashInto(Col c, long[] hashes) {
        int n = hashes.length;
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
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : Utf8Bytes.hash(v[i]));
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

    /** Folds a string key column, as UTF-8 bytes, into the running per-row hashes. */
    static void hashInto(Utf8Bytes c, long[] hashes) {
        int n = hashes.length;
        byte[] data = c.data();
        int[] offsets = c.offsets();
        boolean[] nulls = c.nulls();
        for (int i = 0; i < n; i++) {
            hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : Utf8Bytes.hash(data, offsets[i], offsets[i + 1]));
        }
    }

    private static long fold(long running, long value) {
        return mix(running * 31 + value);
    }

    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** One key column's values by group id. */
    private static final class KeyStore {
        private final DataType type;
        private long[] longs;
        private double[] doubles;
        private boolean[] bools;
        private String[] strings;
        /** High words of a decimal key of precision 19 to 38 (low words in {@code longs}). */
        private long[] highs;
        private boolean[] nulls = new boolean[256];
        private long stringBytes;
        // String keys also as UTF-8 bytes, group after group, to compare keys that arrive as bytes.
        private byte[] utf8;
        private int[] utf8Ends;
        private int utf8Used;

        KeyStore(DataType type) {
            this.type = type;
            switch (type.kind()) {
                case FLOAT64 -> doubles = new double[256];
                case BOOL, NULL -> bools = new boolean[256];
                case UTF8 -> {
                    strings = new String[256];
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
                if (strings != null) strings = Arrays.copyOf(strings, size);
                if (utf8Ends != null) utf8Ends = Arrays.copyOf(utf8Ends, size);
            }
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

        /** Appends a string key that arrives as UTF-8 bytes (decoded once, for the output). */
        void append(int id, Utf8Bytes c, int row) {
            grow(id);
            if (c.isNull(row)) {
                nulls[id] = true;
                utf8Ends[id] = utf8Used;
                return;
            }
            int from = c.start(row);
            int to = c.end(row);
            appendUtf8(id, c.data(), from, to);
            strings[id] = new String(c.data(), from, to - from, java.nio.charset.StandardCharsets.UTF_8);
            stringBytes += HeapSize.string(strings[id]) + (to - from);
        }

        boolean equalsRow(int id, Utf8Bytes c, int row) {
            boolean rowNull = c.isNull(row);
            if (rowNull || nulls[id]) {
                return rowNull && nulls[id];
            }
            return Arrays.equals(utf8, utf8Start(id), utf8Ends[id], c.data(), c.start(row), c.end(row));
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
                    strings[id] = c.strings[row];
                    byte[] bytes = strings[id].getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    appendUtf8(id, bytes, 0, bytes.length);
                    stringBytes += HeapSize.string(strings[id]) + bytes.length;
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

        long heapBytes() {
            int n = nulls.length;
            long values = strings != null ? HeapSize.references(n) + stringBytes
                    : longs != null || doubles != null ? HeapSize.longs(n) * (highs != null ? 2 : 1) : HeapSize.booleans(n);
            return HeapSize.booleans(n) + values;
        }

        boolean equalsRow(int id, Col c, int row) {
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
                case UTF8 -> strings[id].equals(c.strings[row]);
                default -> longs[id] == c.longs[row];
            };
        }

        private boolean equalsWide(int id, Col c, int row) {
            boolean rowNull = c.isNull(row);
            if (rowNull || nulls[id]) {
                return rowNull && nulls[id];
            }
            long high = highs != null ? highs[id] : longs[id] >> 63;
            return high == c.high(row) && longs[id] == c.low(row);
        }

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
                case UTF8 -> Col.ofStrings(Arrays.copyOfRange(strings, from, from + count), outNulls);
                default -> Col.ofLongs(type, Arrays.copyOfRange(longs, from, from + count), outNulls);
            };
        }
    }
}
