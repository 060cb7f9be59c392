package io.sluice.operators.sort;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.operators.KeyOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A stable sort of rows on normalized binary keys, for any mix of key types: each row's keys are
 * packed into a fixed-width prefix of up to {@link #MAX_WORDS} longs whose unsigned order is the
 * rows' order under {@link KeyOrder}, and the rows are sorted by those longs (radix sort on large
 * ranges, merge sort on small ones); only rows whose prefixes tie are compared key by key.
 *
 * <p>The prefix holds, per key in order: a NULL byte when the key has NULLs (NULLs first or last,
 * independent of direction), then the value's order-preserving bytes, complemented for DESC:
 * integers as their offset from the key's minimum in as few bytes as the key's range needs (a key
 * of 1000 values takes two bytes), doubles as {@link KeyOrder#normalizedDouble} bits, booleans as
 * one byte; a string as its first UTF-8 bytes, zero-padded (0xFF when DESC), and nothing after it.
 * A decimal in the wide form ends the prefix. Keys wholly in the prefix are never compared again;
 * for prefix ties the comparison starts at the first key not wholly in it (a string cut at the
 * prefix width or any later key).
 *
 * <p>Strings stay bytes ({@link Utf8Bytes}) and compare in the order of {@link String#compareTo}
 * (UTF-16 code units), the order {@link KeyOrder#compareValues} and so the run merge, range
 * partitioning and merge join use: it differs from UTF-8 byte order only in putting supplementary
 * characters (4-byte sequences, lead bytes F0-F4) before U+E000-U+FFFF (lead bytes EE-EF), which
 * a translation of those seven lead bytes restores ({@link #UTF16_ORDER}).
 *
 * <p>Memory ({@link #sortMemory}): the prefix words and their radix scratch (16 bytes per word
 * and row), the row index and its scratch (8), and merge sort positions for tied or small ranges
 * (8), all primitive arrays allocated once per sort.
 *
 * <p>Long on purpose: the encoding and the radix and merge sorts all work on the same per-sort
 * primitive arrays (prefix words, row index, scratch) in the sort's hot loops; keeping them fields
 * of one instance lets those loops index the arrays directly, with no call per row.
 */
public final class NormalizedKeySort {
    /** At most this many longs of prefix per row (32 bytes). */
    static final int MAX_WORDS = 4;
    /** Ranges shorter than this are merge sorted on the prefix rather than radix sorted. */
    private static final int RADIX_MIN_ROWS = 256;

    /** Each UTF-8 byte's rank in UTF-16 code unit order: lead bytes EE-EF after F0-F4, every other byte itself. */
    static final byte[] UTF16_ORDER = new byte[256];

    static {
        for (int b = 0; b < 256; b++) {
            UTF16_ORDER[b] = (byte) b;
        }
        UTF16_ORDER[0xEE] = (byte) 0xF3;
        UTF16_ORDER[0xEF] = (byte) 0xF4;
        for (int b = 0xF0; b <= 0xF4; b++) {
            UTF16_ORDER[b] = (byte) (b - 2);
        }
    }

    /** One sort key's values for every row: a heap column (numbers, booleans, decimals) or a string key's UTF-8 bytes. */
    public record KeyColumn(Col col, Utf8Bytes utf8) {
        public KeyColumn {
            if ((col == null) == (utf8 == null)) {
                throw new IllegalArgumentException("a key column is either a Col or UTF-8 bytes");
            }
        }

        /** A key column; a string column's values become UTF-8 bytes. */
        public static KeyColumn of(Col col) {
            requireNonNull(col, "col is null");
            return col.type.kind() == DataType.Kind.UTF8 ? new KeyColumn(null, encode(col)) : new KeyColumn(col, null);
        }

        public static KeyColumn of(Utf8Bytes utf8) {
            return new KeyColumn(null, requireNonNull(utf8, "utf8 is null"));
        }

        public int length() {
            return col != null ? col.length : utf8.length();
        }

        public boolean isNull(int row) {
            return col != null ? col.isNull(row) : utf8.isNull(row);
        }

        /** Heap bytes held. */
        public long heapBytes() {
            if (col != null) {
                return io.sluice.operators.memory.HeapSize.of(col);
            }
            return utf8.data().length + 4L * utf8.offsets().length + (utf8.nulls() == null ? 0 : utf8.length());
        }

        /** The rows of several key columns of one key, one after another. */
        public static KeyColumn concat(List<KeyColumn> parts) {
            if (parts.size() == 1) {
                return parts.get(0);
            }
            if (parts.get(0).col != null) {
                return of(Col.concat(parts.get(0).col.type, parts.stream().map(KeyColumn::col).toList()));
            }
            long bytes = 0;
            int rows = 0;
            boolean anyNulls = false;
            for (KeyColumn p : parts) {
                int n = p.utf8.length();
                bytes += n == 0 ? 0 : p.utf8.end(n - 1) - p.utf8.start(0);
                rows += n;
                anyNulls |= p.utf8.nulls() != null;
            }
            if (bytes > Integer.MAX_VALUE - 16) {
                throw new io.sluice.common.SluiceException("a sort buffer of " + bytes + " string key bytes passes 2 GB");
            }
            byte[] data = new byte[(int) bytes];
            int[] offsets = new int[rows + 1];
            boolean[] nulls = anyNulls ? new boolean[rows] : null;
            int row = 0;
            int at = 0;
            for (KeyColumn p : parts) {
                Utf8Bytes u = p.utf8;
                int n = u.length();
                if (n == 0) {
                    continue;
                }
                int base = u.start(0);
                int length = u.end(n - 1) - base;
                System.arraycopy(u.data(), base, data, at, length);
                for (int i = 0; i < n; i++) {
                    offsets[row + i + 1] = at + u.end(i) - base;
                }
                if (u.nulls() != null) {
                    System.arraycopy(u.nulls(), 0, nulls, row, n);
                }
                row += n;
                at += length;
            }
            return of(new Utf8Bytes(data, offsets, nulls, rows));
        }

        /** A string column's values as UTF-8 bytes (NULLs empty). */
        private static Utf8Bytes encode(Col col) {
            int n = col.length;
            int[] offsets = new int[n + 1];
            byte[][] values = new byte[n][];
            long total = 0;
            for (int i = 0; i < n; i++) {
                if (!col.isNull(i)) {
                    values[i] = col.strings[i].getBytes(StandardCharsets.UTF_8);
                    total += values[i].length;
                }
            }
            byte[] data = new byte[Math.toIntExact(total)];
            int at = 0;
            for (int i = 0; i < n; i++) {
                if (values[i] != null) {
                    System.arraycopy(values[i], 0, data, at, values[i].length);
                    at += values[i].length;
                }
                offsets[i + 1] = at;
            }
            return new Utf8Bytes(data, offsets, col.nulls, n);
        }
    }

    private final KeyOrder order;
    private final KeyColumn[] keys;
    private final int rows;
    /** Prefix words, column-major: {@code words[w][i]} is word {@code w} of the row at position {@code i}. */
    private long[][] words;
    private long[][] wordScratch;
    private int[] index;
    private int[] indexScratch;
    /** Keys {@code [0, complete)} are wholly in the prefix: rows with equal prefixes are equal on them. */
    private int complete;
    private int[] positions;
    private int[] mergeScratch;
    private final int[][] counts = new int[8][256];

    private NormalizedKeySort(KeyOrder order, KeyColumn[] keys, int rows) {
        this.order = requireNonNull(order, "order is null");
        this.keys = keys.clone();
        this.rows = rows;
        if (keys.length != order.size()) {
            throw new IllegalArgumentException(keys.length + " key columns for " + order.size() + " keys");
        }
    }

    /** Row indexes {@code 0..rows-1} of {@code keys} in {@code order}, stable (ties keep input order). */
    public static int[] sort(KeyOrder order, KeyColumn[] keys, int rows) {
        return new NormalizedKeySort(order, keys, rows).run();
    }

    /** Heap bytes {@link #sort} allocates for these keys (the returned index included): an upper bound a caller reserves first. */
    public static long sortMemory(KeyColumn[] keys, int rows) {
        return perRow(wordsFor(keys)) * rows;
    }

    /** Bytes per row of a sort with {@code words} prefix words. */
    static long perRow(int words) {
        return 16L * words + 16;
    }

    /** The prefix width in longs for these keys (the layout {@link #encode} writes). */
    private static int wordsFor(KeyColumn[] keys) {
        int bytes = 0;
        for (KeyColumn k : keys) {
            int flag = hasNulls(k) ? 1 : 0;
            if (k.utf8 != null) {
                int take = Math.min(maxLength(k.utf8), MAX_WORDS * 8 - bytes - flag);
                bytes += take > 0 ? flag + take : 0;
                break;
            }
            int width = valueBytes(k.col);
            if (width < 0 || bytes + flag + width > MAX_WORDS * 8) {
                break;
            }
            bytes += flag + width;
        }
        return (bytes + 7) >>> 3;
    }

    private int[] run() {
        index = new int[rows];
        for (int i = 0; i < rows; i++) {
            index[i] = i;
        }
        if (rows < 2) {
            return index;
        }
        int width = wordsFor(keys);
        words = new long[width][rows];
        encode();
        sortRange(0, rows, 0);
        return index;
    }

    private static boolean hasNulls(KeyColumn k) {
        boolean[] nulls = k.col != null ? k.col.nulls : k.utf8.nulls();
        if (nulls == null) {
            return false;
        }
        for (boolean b : nulls) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    private static int maxLength(Utf8Bytes u) {
        int max = 0;
        int[] offsets = u.offsets();
        for (int i = 0; i < u.length(); i++) {
            max = Math.max(max, offsets[i + 1] - offsets[i]);
        }
        return max;
    }

    /** The prefix bytes of a non-string key's values, or -1 if it has no fixed-width form (a wide decimal). */
    private static int valueBytes(Col c) {
        return switch (c.type.kind()) {
            case FLOAT64 -> 8;
            case BOOL, NULL -> 1;
            default -> {
                if (c.isWide()) {
                    yield -1;
                }
                long[] range = range(c);
                yield range == null ? 0 : bytesFor(range);
            }
        };
    }

    /** Smallest and largest non-NULL value of a long column, or null if every row is NULL. */
    private static long[] range(Col c) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        boolean any = false;
        long[] v = c.longs;
        for (int i = 0; i < c.length; i++) {
            if (!c.isNull(i)) {
                min = Math.min(min, v[i]);
                max = Math.max(max, v[i]);
                any = true;
            }
        }
        return any ? new long[] {min, max} : null;
    }

    /** Bytes holding {@code max - min} as an unsigned number: none when all are equal, 8 when the difference overflows. */
    private static int bytesFor(long[] range) {
        long span = range[1] - range[0];
        return span < 0 ? 8 : (64 - Long.numberOfLeadingZeros(span) + 7) >>> 3;
    }

    /** ORs {@code nbytes} big-endian bytes (the low bytes of {@code v}) into row {@code row}'s prefix at byte {@code pos}. */
    private void put(int row, int pos, int nbytes, long v) {
        int w = pos >>> 3;
        int avail = 8 - (pos & 7);
        if (nbytes <= avail) {
            words[w][row] |= v << ((avail - nbytes) << 3);
        } else {
            int rest = nbytes - avail;
            words[w][row] |= v >>> (rest << 3);
            words[w + 1][row] |= v << ((8 - rest) << 3);
        }
    }

    /** Writes every row's prefix; sets {@link #complete}. */
    private void encode() {
        int limit = words.length * 8;
        int pos = 0;
        complete = 0;
        for (int k = 0; k < keys.length; k++) {
            KeyColumn key = keys[k];
            boolean nullable = hasNulls(key);
            int flag = nullable ? 1 : 0;
            boolean asc = order.ascending(k);
            if (key.utf8 != null) {
                int take = Math.min(maxLength(key.utf8), limit - pos - flag);
                if (take > 0) {
                    encodeString(key.utf8, pos, nullable, order.nullsFirst(k), take, asc);
                }
                return; // a string is never wholly in the prefix
            }
            Col c = key.col;
            int width = valueBytes(c);
            if (width < 0 || pos + flag + width > limit) {
                return;
            }
            if (nullable) {
                encodeNulls(c.nulls, pos, order.nullsFirst(k));
            }
            if (width > 0) {
                encodeNumbers(c, pos + flag, width, asc);
            }
            pos += flag + width;
            complete = k + 1;
        }
    }

    /** The NULL byte: 0 for the rows that go first, 1 for the others. */
    private void encodeNulls(boolean[] nulls, int pos, boolean nullsFirst) {
        for (int i = 0; i < rows; i++) {
            if (nulls[i] != nullsFirst) {
                put(i, pos, 1, 1);
            }
        }
    }

    private void encodeNumbers(Col c, int pos, int width, boolean asc) {
        long mask = width == 8 ? -1L : (1L << (width << 3)) - 1;
        long flip = asc ? 0 : mask;
        switch (c.type.kind()) {
            case FLOAT64 -> {
                for (int i = 0; i < rows; i++) {
                    if (!c.isNull(i)) {
                        put(i, pos, 8, (KeyOrder.normalizedDouble(c.doubles[i]) ^ Long.MIN_VALUE) ^ flip);
                    }
                }
            }
            case BOOL, NULL -> {
                for (int i = 0; i < rows; i++) {
                    if (!c.isNull(i)) {
                        put(i, pos, 1, (c.bools[i] ? 1 : 0) ^ flip);
                    }
                }
            }
            default -> {
                long[] range = range(c);
                // offsets from the minimum when they fit the width, else the value with its sign bit flipped
                long base = width == 8 ? Long.MIN_VALUE : range[0];
                long[] v = c.longs;
                for (int i = 0; i < rows; i++) {
                    if (!c.isNull(i)) {
                        put(i, pos, width, ((v[i] - base) & mask) ^ flip);
                    }
                }
            }
        }
    }

    private void encodeString(Utf8Bytes u, int pos, boolean nullable, boolean nullsFirst, int take, boolean asc) {
        if (nullable) {
            encodeNulls(u.nulls(), pos, nullsFirst);
            pos++;
        }
        byte[] data = u.data();
        int[] offsets = u.offsets();
        int pad = asc ? 0 : 0xFF;
        for (int i = 0; i < rows; i++) {
            if (u.isNull(i)) {
                continue;
            }
            int start = offsets[i];
            int length = Math.min(take, offsets[i + 1] - start);
            for (int j = 0; j < take; j++) {
                int b = j < length ? (UTF16_ORDER[data[start + j] & 0xFF] & 0xFF) ^ pad : pad;
                if (b != 0) {
                    int p = pos + j;
                    words[p >>> 3][i] |= (long) b << (56 - ((p & 7) << 3));
                }
            }
        }
    }

    /** Sorts positions {@code [from, to)} by prefix words {@code w..} (all earlier words are equal there), then ties. */
    private void sortRange(int from, int to, int w) {
        if (w == words.length) {
            if (complete < keys.length) {
                mergeSort(from, to, w);
            }
            return;
        }
        if (to - from < RADIX_MIN_ROWS) {
            mergeSort(from, to, w);
            return;
        }
        radixSort(from, to, w);
        long[] key = words[w];
        int runStart = from;
        for (int i = from + 1; i <= to; i++) {
            if (i < to && key[i] == key[runStart]) {
                continue;
            }
            if (i - runStart > 1) {
                sortRange(runStart, i, w + 1);
            }
            runStart = i;
        }
    }

    /**
     * Stable LSD radix sort of positions {@code [from, to)} by word {@code w} (unsigned), a byte at
     * a time, skipping bytes in which all of them agree; the later words and the index move along.
     */
    private void radixSort(int from, int to, int w) {
        int n = to - from;
        long[] key = words[w];
        for (int[] c : counts) {
            java.util.Arrays.fill(c, 0);
        }
        for (int i = from; i < to; i++) {
            long k = key[i];
            for (int b = 0; b < 8; b++) {
                counts[b][(int) (k >>> (b << 3)) & 0xFF]++;
            }
        }
        if (wordScratch == null) {
            wordScratch = new long[words.length][rows];
            indexScratch = new int[rows];
        }
        int later = words.length - w;
        long[][] src = new long[later][];
        long[][] dst = new long[later][];
        for (int j = 0; j < later; j++) {
            src[j] = words[w + j];
            dst[j] = wordScratch[w + j];
        }
        int[] srcIndex = index;
        int[] dstIndex = indexScratch;
        int[] start = new int[256];
        for (int b = 0; b < 8; b++) {
            int[] count = counts[b];
            int shift = b << 3;
            if (count[(int) (src[0][from] >>> shift) & 0xFF] == n) {
                continue; // every row has the same byte here
            }
            int sum = from;
            for (int d = 0; d < 256; d++) {
                start[d] = sum;
                sum += count[d];
            }
            long[] k0 = src[0];
            long[] d0 = dst[0];
            if (later == 1) {
                for (int i = from; i < to; i++) {
                    long k = k0[i];
                    int at = start[(int) (k >>> shift) & 0xFF]++;
                    d0[at] = k;
                    dstIndex[at] = srcIndex[i];
                }
            } else {
                for (int i = from; i < to; i++) {
                    long k = k0[i];
                    int at = start[(int) (k >>> shift) & 0xFF]++;
                    d0[at] = k;
                    dstIndex[at] = srcIndex[i];
                    for (int j = 1; j < later; j++) {
                        dst[j][at] = src[j][i];
                    }
                }
            }
            long[][] t = src;
            src = dst;
            dst = t;
            int[] ti = srcIndex;
            srcIndex = dstIndex;
            dstIndex = ti;
        }
        if (srcIndex != index) {
            System.arraycopy(srcIndex, from, index, from, n);
            for (int j = 0; j < later; j++) {
                System.arraycopy(src[j], from, words[w + j], from, n);
            }
        }
    }

    /** Stable merge sort of positions {@code [from, to)} by prefix words {@code w..}, then ties key by key; moves only the index. */
    private void mergeSort(int from, int to, int w) {
        int n = to - from;
        if (positions == null || positions.length < n) {
            positions = new int[Math.max(n, Math.min(rows, RADIX_MIN_ROWS))];
            mergeScratch = new int[positions.length];
        }
        int[] pos = positions;
        for (int i = 0; i < n; i++) {
            pos[i] = from + i;
        }
        if (n <= 16) {
            for (int a = 1; a < n; a++) {
                int p = pos[a];
                int b = a - 1;
                while (b >= 0 && compareAt(pos[b], p, w) > 0) {
                    pos[b + 1] = pos[b];
                    b--;
                }
                pos[b + 1] = p;
            }
        } else {
            int[] scratch = mergeScratch;
            for (int width = 1; width < n; width *= 2) {
                for (int lo = 0; lo < n - width; lo += 2 * width) {
                    int mid = lo + width;
                    int hi = Math.min(lo + 2 * width, n);
                    if (compareAt(pos[mid - 1], pos[mid], w) <= 0) {
                        continue;
                    }
                    int i = lo;
                    int j = mid;
                    int k = 0;
                    while (i < mid && j < hi) {
                        scratch[k++] = compareAt(pos[j], pos[i], w) < 0 ? pos[j++] : pos[i++];
                    }
                    while (i < mid) {
                        scratch[k++] = pos[i++];
                    }
                    while (j < hi) {
                        scratch[k++] = pos[j++];
                    }
                    System.arraycopy(scratch, 0, pos, lo, hi - lo);
                }
            }
        }
        int[] rowsInOrder = mergeScratch;
        for (int i = 0; i < n; i++) {
            rowsInOrder[i] = index[pos[i]];
        }
        System.arraycopy(rowsInOrder, 0, index, from, n);
    }

    /** Compares the rows at positions {@code p} and {@code q} by prefix words {@code w..}, then by the keys not wholly in the prefix. */
    private int compareAt(int p, int q, int w) {
        for (int j = w; j < words.length; j++) {
            int cmp = Long.compareUnsigned(words[j][p], words[j][q]);
            if (cmp != 0) {
                return cmp;
            }
        }
        return complete == keys.length ? 0 : compareKeys(index[p], index[q], complete);
    }

    /** Compares rows {@code a} and {@code b} by keys {@code from..}. */
    private int compareKeys(int a, int b, int from) {
        for (int k = from; k < keys.length; k++) {
            KeyColumn key = keys[k];
            int cmp;
            if (key.col != null) {
                cmp = order.compareKey(k, key.col, a, key.col, b);
            } else {
                boolean an = key.utf8.isNull(a);
                boolean bn = key.utf8.isNull(b);
                if (an || bn) {
                    cmp = an == bn ? 0 : an == order.nullsFirst(k) ? -1 : 1;
                } else {
                    cmp = compareUtf8(key.utf8, a, b);
                    cmp = order.ascending(k) ? cmp : -cmp;
                }
            }
            if (cmp != 0) {
                return cmp;
            }
        }
        return 0;
    }

    /** Two strings' UTF-8 bytes in {@link String#compareTo} order. */
    static int compareUtf8(Utf8Bytes u, int a, int b) {
        byte[] data = u.data();
        int[] offsets = u.offsets();
        int i = offsets[a];
        int iEnd = offsets[a + 1];
        int j = offsets[b];
        int jEnd = offsets[b + 1];
        int mismatch = java.util.Arrays.mismatch(data, i, iEnd, data, j, jEnd);
        if (mismatch < 0) {
            return 0;
        }
        if (mismatch == iEnd - i || mismatch == jEnd - j) {
            return Integer.compare(iEnd - i, jEnd - j);
        }
        return Integer.compare(UTF16_ORDER[data[i + mismatch] & 0xFF] & 0xFF, UTF16_ORDER[data[j + mismatch] & 0xFF] & 0xFF);
    }
}
