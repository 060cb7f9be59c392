package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A string hashes alike as a {@code String} and as its UTF-8 bytes, whatever its length and
 * characters; the partition hash does not crowd a table.
 */
class KeyHashTest {
    private static final List<String> VALUES = List.of("", "a", "key-1", "1234567", "12345678", "123456789",
            "key-999999", "0123456789abcdef", "0123456789abcdefg", "Grüße", "日本語のキー", "𝄞 clef", "a\0", "\0",
            "prefix01", "prefix01-a", "prefix01-b");

    @Test
    void aStringAndItsUtf8BytesHashAlike() {
        for (String s : VALUES) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            // the bytes inside a larger array, as in an Arrow data buffer
            byte[] padded = new byte[utf8.length + 6];
            System.arraycopy(utf8, 0, padded, 3, utf8.length);
            assertThat(KeyHash.bytes(padded, 3, 3 + utf8.length)).as(s).isEqualTo(KeyHash.string(s))
                    .isEqualTo(KeyHash.bytes(utf8, 0, utf8.length));
            // at the start and at the end of a larger array of other bytes (the tail read from either side)
            byte[] around = new byte[utf8.length + 40];
            java.util.Arrays.fill(around, (byte) 0x5a);
            System.arraycopy(utf8, 0, around, 0, utf8.length);
            assertThat(KeyHash.bytes(around, 0, utf8.length)).as(s).isEqualTo(KeyHash.string(s));
            java.util.Arrays.fill(around, (byte) 0x5a);
            System.arraycopy(utf8, 0, around, 40, utf8.length);
            assertThat(KeyHash.bytes(around, 40, around.length)).as(s).isEqualTo(KeyHash.string(s));
        }
    }

    @Test
    void aSingleKeysHashIsItsRowHash() {
        long[] longs = {0, 1, -1, 5, Long.MIN_VALUE, Long.MAX_VALUE, 1_000_003};
        long[] rowHashes = new long[longs.length];
        KeyHash.hashInto(Col.ofLongs(DataType.INT64, longs, null), rowHashes, longs.length);
        for (int i = 0; i < longs.length; i++) {
            assertThat(KeyHash.ofLong(longs[i])).as("%d", longs[i]).isEqualTo(rowHashes[i]);
        }
        double[] doubles = {0.0, -0.0, 1.5, -2.25, Double.NaN, Double.longBitsToDouble(0x7ff8000000000001L),
            Double.POSITIVE_INFINITY};
        long[] doubleHashes = new long[doubles.length];
        KeyHash.hashInto(Col.ofDoubles(doubles, null), doubleHashes, doubles.length);
        for (int i = 0; i < doubles.length; i++) {
            assertThat(KeyHash.ofDouble(doubles[i])).as("%s", doubles[i]).isEqualTo(doubleHashes[i]);
        }
        assertThat(KeyHash.ofDouble(-0.0)).as("-0.0 is 0.0").isEqualTo(KeyHash.ofDouble(0.0));
        assertThat(KeyHash.ofDouble(doubles[5])).as("every NaN is the NaN").isEqualTo(KeyHash.ofDouble(Double.NaN));
    }

    @Test
    void distinctValuesHashApart() {
        // includes keys equal in their first 8 bytes and keys differing only by a trailing zero byte
        Set<Long> hashes = new HashSet<>();
        for (String s : VALUES) {
            hashes.add(KeyHash.string(s));
        }
        assertThat(hashes).hasSize(VALUES.size());
        Set<Long> many = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            many.add(KeyHash.string("key-" + i));
        }
        assertThat(many).hasSize(100_000);
    }

    @Test
    void equalsUtf8ComparesWithoutEncodingAscii() {
        for (String s : VALUES) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            assertThat(KeyHash.equalsUtf8(s, utf8, 0, utf8.length)).as(s).isTrue();
            for (String other : VALUES) {
                if (!other.equals(s)) {
                    assertThat(KeyHash.equalsUtf8(other, utf8, 0, utf8.length)).as(other + " vs " + s).isFalse();
                }
            }
        }
    }

    /** Byte ranges compare 8 bytes at a time, wherever they sit in their arrays (keys equal in their first 8 bytes too). */
    @Test
    void equalBytesComparesRangesAnywhereInTheirArrays() {
        for (String s : VALUES) {
            byte[] a = s.getBytes(StandardCharsets.UTF_8);
            byte[] inside = new byte[a.length + 20];
            java.util.Arrays.fill(inside, (byte) 0x33);
            System.arraycopy(a, 0, inside, 11, a.length);
            for (String other : VALUES) {
                byte[] b = other.getBytes(StandardCharsets.UTF_8);
                boolean same = s.equals(other);
                assertThat(KeyHash.equalBytes(a, 0, a.length, b, 0, b.length)).as(s + " vs " + other).isEqualTo(same);
                assertThat(KeyHash.equalBytes(inside, 11, 11 + a.length, b, 0, b.length)).as(s + " vs " + other)
                        .isEqualTo(same);
            }
        }
    }

    /**
     * The keys of one hash partition spread evenly over a table's slots: the partition hash does
     * not correlate with the table hash, for one key and for two.
     */
    @Test
    void onePartitionsKeysSpreadOverATablesSlots() {
        int rows = 1 << 20;
        int partitions = 16;
        int slots = 1024;
        long[] values = new long[rows];
        long[] other = new long[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = i;
            other[i] = i % 7;
        }
        for (int keys = 1; keys <= 2; keys++) {
            long[] table = new long[rows];
            long[] partition = KeyHash.partitionSeeds(rows);
            KeyHash.hashInto(Col.ofLongs(DataType.INT64, values, null), table, rows);
            KeyHash.hashInto(Col.ofLongs(DataType.INT64, values, null), partition, rows);
            if (keys == 2) {
                KeyHash.hashInto(Col.ofLongs(DataType.INT32, other, null), table, rows);
                KeyHash.hashInto(Col.ofLongs(DataType.INT32, other, null), partition, rows);
            }
            int[] perSlot = new int[slots];
            int inPartition = 0;
            for (int i = 0; i < rows; i++) {
                if (KeyHash.partition(partition[i], partitions) == 0) {
                    inPartition++;
                    perSlot[(int) (table[i] ^ (table[i] >>> 32)) & (slots - 1)]++;
                }
            }
            int mean = inPartition / slots;
            assertThat(mean).as("keys in partition 0").isGreaterThan(10);
            for (int count : perSlot) {
                assertThat(count).as(keys + " key(s)").isBetween(mean / 3, mean * 3);
            }
        }
    }
}
