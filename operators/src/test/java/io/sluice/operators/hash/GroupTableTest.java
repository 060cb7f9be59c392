package io.sluice.operators.hash;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.Utf8Bytes;
import org.junit.jupiter.api.Test;

/** All NULLs of a key column form one group, whatever value lies under their slots. */
class GroupTableTest {
    @Test
    void nullKeysWithDifferentValuesUnderTheSlotFormOneGroup() {
        boolean[] nulls = {true, false, true, true, false};
        Col ints = Col.ofLongs(DataType.INT64, new long[] {7, 1, 8, 9, 1}, nulls);
        Col doubles = Col.ofDoubles(new double[] {0.5, 2.0, -3.0, 1e9, 2.0}, nulls);
        Col decimals = Col.ofLongs(DataType.decimal(10, 2), new long[] {123, 5, -4, 0, 5}, nulls);
        for (Col key : new Col[] {ints, doubles, decimals}) {
            GroupTable table = new GroupTable(new DataType[] {key.type});
            int[] ids = table.groupIds(new Col[] {key}, 5);
            assertThat(ids).as(key.type.toString()).containsExactly(0, 1, 0, 0, 1);
            assertThat(table.groupCount()).isEqualTo(2);
        }
    }

    @Test
    void multiColumnKeysGroupNullsPerColumn() {
        Col a = Col.ofLongs(DataType.INT64, new long[] {3, 4, 5, 1, 1}, new boolean[] {true, true, true, false, false});
        Col b = Col.ofStrings(new String[] {"x", null, "x", null, "y"}, new boolean[] {false, true, false, true, false});
        GroupTable table = new GroupTable(new DataType[] {a.type, b.type});
        int[] ids = table.groupIds(new Col[] {a, b}, 5);
        // (NULL, x), (NULL, NULL), (NULL, x), (1, NULL), (1, y)
        assertThat(ids).containsExactly(0, 1, 0, 2, 3);
    }

    @Test
    void aProbeKeyIn128BitFormFindsLongKeysAndMatchesNothingPastThem() {
        DataType narrow = DataType.decimal(10, 2);
        GroupTable table = new GroupTable(new DataType[] {narrow});
        int[] ids = table.groupIds(new Col[] {Col.ofLongs(narrow, new long[] {5, -7}, null)}, 2);
        // 5, a value past a long (2^64 + 5), -7, NULL: the wide form, as a decimal(38,2) column holds them
        Col wide = Col.ofInt128(DataType.decimal(38, 2), new long[] {0, 1, -1, 0}, new long[] {5, 5, -7, 0},
                new boolean[] {false, false, false, true});
        assertThat(wide.longs).as("the wide form").isNull();
        assertThat(table.find(new Col[] {wide}, 4, null)).containsExactly(ids[0], -1, ids[1], -1);
    }

    @Test
    void singleLongKeysFindTheirGroupsAcrossGrowthAndANullGroup() {
        int n = 10_000;
        long[] values = new long[n];
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            values[i] = (i % 3000) * 1_000_003L - 7;
            nulls[i] = i % 1000 == 999;
        }
        GroupTable table = new GroupTable(new DataType[] {DataType.INT64});
        int[] ids = table.groupIds(new Col[] {Col.ofLongs(DataType.INT64, values, nulls)}, n);
        assertThat(table.groupCount()).isEqualTo(distinct(values, nulls));
        java.util.Map<Long, Integer> byValue = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) {
            Long key = nulls[i] ? null : values[i];
            Integer seen = byValue.putIfAbsent(key, ids[i]);
            assertThat(seen == null ? ids[i] : seen).as("row " + i).isEqualTo(ids[i]);
        }
        // An INT32 probe without NULLs, with misses, after the NULL group exists.
        long[] probe = {-7, 1_000_003L - 7, 42, 2998 * 1_000_003L - 7};
        int[] found = table.find(new Col[] {Col.ofLongs(DataType.INT32, probe, null)}, probe.length, null);
        assertThat(found).containsExactly(byValue.get(-7L), byValue.get(1_000_003L - 7), -1,
                byValue.get(2998 * 1_000_003L - 7));
        int[] nullProbe = table.find(new Col[] {Col.ofLongs(DataType.INT64, new long[] {5}, new boolean[] {true})}, 1, null);
        assertThat(nullProbe).containsExactly(byValue.get(null));

        // Without a NULL group.
        GroupTable noNulls = new GroupTable(new DataType[] {DataType.INT64});
        noNulls.groupIds(new Col[] {Col.ofLongs(DataType.INT64, values, null)}, n);
        int[] again = noNulls.find(new Col[] {Col.ofLongs(DataType.INT64, probe, new boolean[] {false, true, false, false})},
                probe.length, null);
        assertThat(again[0]).isNotNegative();
        assertThat(again[1]).isEqualTo(-1);
        assertThat(again[2]).isEqualTo(-1);
        assertThat(again[3]).isNotNegative();
    }

    /**
     * Keys read in place in runs (clustered input: a row often has the previous row's key, new keys
     * too, NULLs between equal keys, a run across batches): every row finds the group of its key,
     * in a table past the caches as in a small one, and a join's probe of the runs finds the same.
     */
    @Test
    void clusteredInPlaceKeysFindTheGroupOfTheirRun() {
        int n = 150_000;
        long[] values = new long[n];
        boolean[] nulls = new boolean[n];
        int[] expected = new int[n];
        java.util.Map<Long, Integer> byValue = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) {
            values[i] = (i / 3) * 7L; // runs of three, 50000 keys: past InlineSlots.TOUCH_MIN_SLOTS
            nulls[i] = i % 11 == 1; // splits some runs: (k, NULL, k)
            Long k = nulls[i] ? null : values[i];
            expected[i] = byValue.computeIfAbsent(k, v -> byValue.size()); // numbered by first appearance
        }
        Col col = Col.ofLongs(DataType.INT64, values, nulls);
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.FieldVector vector = col.write("k", allocator)) {
            io.sluice.kernels.InPlaceValues key = io.sluice.kernels.InPlaceValues.of(vector, DataType.INT64);
            GroupTable table = new GroupTable(new DataType[] {DataType.INT64});
            assertThat(table.groupIds(key, n, new int[n])).isEqualTo(expected);
            assertThat(table.groupCount()).isEqualTo(byValue.size());
            // the same rows again (every key known now, the slots past the caches), and found without adding
            assertThat(table.groupIds(key, n, new int[n])).isEqualTo(expected);
            assertThat(table.find(key, n, new int[n])).isEqualTo(expected);
            assertThat(table.groupCount()).isEqualTo(byValue.size());
            // a fresh table fed the rows in batches of 1000 (runs crossing batch ends) numbers them alike
            GroupTable batched = new GroupTable(new DataType[] {DataType.INT64});
            for (int from = 0; from < n; from += 1000) {
                Col slice = Col.ofLongs(DataType.INT64, java.util.Arrays.copyOfRange(values, from, from + 1000),
                        java.util.Arrays.copyOfRange(nulls, from, from + 1000));
                try (org.apache.arrow.vector.FieldVector part = slice.write("k", allocator)) {
                    int[] got = batched.groupIds(io.sluice.kernels.InPlaceValues.of(part, DataType.INT64), 1000, new int[1000]);
                    assertThat(got).as("batch at " + from).isEqualTo(java.util.Arrays.copyOfRange(expected, from, from + 1000));
                }
            }
        }
    }

    private static int distinct(long[] values, boolean[] nulls) {
        java.util.Set<Long> keys = new java.util.HashSet<>();
        for (int i = 0; i < values.length; i++) {
            keys.add(nulls[i] ? null : values[i]);
        }
        return keys.size();
    }

    /** String keys as UTF-8 bytes (from Arrow) and as decoded strings meet in the same groups; NULLs in one. */
    @Test
    void stringKeysAsBytesAndAsStringsShareGroups() {
        String[] values = {"Grüße", null, "日本", "a", "Grüße", null, "", "𝄞", "a", ""};
        boolean[] nulls = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            nulls[i] = values[i] == null;
        }
        Col strings = Col.ofStrings(values, nulls);
        GroupTable table = new GroupTable(new DataType[] {DataType.UTF8});
        int[] fromStrings = table.groupIds(new Col[] {strings}, values.length);
        assertThat(fromStrings).containsExactly(0, 1, 2, 3, 0, 1, 4, 5, 3, 4);
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.FieldVector vector = strings.write("s", allocator)) {
            Utf8Bytes bytes = Utf8Bytes.of((org.apache.arrow.vector.VarCharVector) vector);
            int[] fromBytes = table.groupIds(new Col[1], new Utf8Bytes[] {bytes}, values.length, null);
            assertThat(fromBytes).containsExactly(fromStrings);
            // a fresh table fed bytes first decodes each new key once, for the output
            GroupTable bytesFirst = new GroupTable(new DataType[] {DataType.UTF8});
            assertThat(bytesFirst.groupIds(new Col[1], new Utf8Bytes[] {bytes}, values.length, null))
                    .containsExactly(fromStrings);
            assertThat(bytesFirst.groupIds(new Col[] {strings}, values.length)).containsExactly(fromStrings);
            Col keys = bytesFirst.keyColumns(0, bytesFirst.groupCount())[0];
            assertThat(keys.get(0)).isEqualTo("Grüße");
            assertThat(keys.get(1)).isNull();
            assertThat(keys.get(5)).isEqualTo("𝄞");
        }
    }

    /**
     * Keys equal in their first 8 bytes, the empty string next to NULL, multi-byte UTF-8: distinct
     * groups, found again across the table's growth, and written to Arrow as the same bytes.
     */
    @Test
    void stringKeysSharingAPrefixStayApartAndWriteBackAsBytes() {
        int n = 5_000;
        String[] values = new String[n];
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            nulls[i] = i % 97 == 0;
            values[i] = nulls[i] ? null : switch (i % 5) {
                case 0 -> "";
                case 1 -> "prefix01-" + (i % 700);
                case 2 -> "prefix01";
                case 3 -> "ключ-" + (i % 300);
                default -> "prefix01" + "\0".repeat(i % 3);
            };
        }
        Col strings = Col.ofStrings(values, nulls);
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.FieldVector vector = strings.write("s", allocator)) {
            Utf8Bytes bytes = Utf8Bytes.of((org.apache.arrow.vector.VarCharVector) vector);
            GroupTable table = new GroupTable(new DataType[] {DataType.UTF8});
            int[] ids = table.groupIds(new Col[1], new Utf8Bytes[] {bytes}, n, null);
            java.util.Map<String, Integer> byValue = new java.util.HashMap<>();
            for (int i = 0; i < n; i++) {
                Integer seen = byValue.putIfAbsent(values[i], ids[i]);
                assertThat(seen == null ? ids[i] : seen).as("row " + i).isEqualTo(ids[i]);
            }
            assertThat(table.groupCount()).isEqualTo(byValue.size());
            // the same keys as strings find the same groups
            assertThat(table.groupIds(new Col[] {strings}, n)).containsExactly(ids);
            int groups = table.groupCount();
            try (org.apache.arrow.vector.FieldVector keys = table.keyVector(0, 1, groups - 1, "s", allocator)) {
                Col read = Col.read(keys, DataType.UTF8);
                Col heap = table.keyColumns(1, groups - 1)[0];
                assertThat(read.length).isEqualTo(groups - 1);
                for (int g = 0; g < groups - 1; g++) {
                    assertThat(read.get(g)).as("group " + (g + 1)).isEqualTo(heap.get(g));
                    assertThat(byValue.get((String) read.get(g))).isEqualTo(g + 1);
                }
            }
        }
    }

    /**
     * Short keys packed into one long (a string of up to 3 bytes and an integer): the same groups
     * as the hashed table over the same rows (NULL strings and integers, garbage under a NULL
     * integer, negative integers, the empty string, a 2-byte character), the keys unpacked for
     * the output; a batch with a longer string moves the table to hashing, keeping its groups.
     */
    @Test
    void packedShortKeysGroupAsHashedKeysAndLeaveThePackedFormForALongerString() {
        String[] strings = {"", "a", null, "abc", "é", "a", "", null, "abc", "ab", "é", "a"};
        long[] ints = {-1, 7, 0, 7, -1, 7, -1, 0, 7, Integer.MIN_VALUE, 3, 7};
        boolean[] intNulls = {false, false, true, false, false, false, false, true, false, false, false, true};
        int n = strings.length;
        DataType[] types = {DataType.UTF8, DataType.INT32};
        Col[] cols = {Col.ofStrings(strings, nullsOf(strings)), Col.ofLongs(DataType.INT32, ints, intNulls)};
        GroupTable hashed = new GroupTable(types);
        int[] expected = hashed.groupIds(cols, n);
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.FieldVector s = cols[0].write("s", allocator);
                org.apache.arrow.vector.FieldVector i = cols[1].write("i", allocator)) {
            for (int r = 0; r < n; r++) {
                if (intNulls[r]) {
                    i.getDataBuffer().setInt(4L * r, 1000 + r); // garbage under the NULL
                }
            }
            GroupTable packed = new GroupTable(types);
            assertThat(packed.packsKeys()).isTrue();
            int[] ids = new int[n];
            assertThat(packed.groupIds(new org.apache.arrow.vector.FieldVector[] {s, i}, n, ids, new long[n])).isTrue();
            assertThat(ids).containsExactly(expected);
            assertThat(packed.groupCount()).isEqualTo(hashed.groupCount());
            Col[] keys = packed.keyColumns(0, packed.groupCount());
            Col[] hashedKeys = hashed.keyColumns(0, hashed.groupCount());
            for (int g = 0; g < packed.groupCount(); g++) {
                assertThat(keys[0].get(g)).as("group " + g).isEqualTo(hashedKeys[0].get(g));
                assertThat(keys[1].get(g)).as("group " + g).isEqualTo(hashedKeys[1].get(g));
            }

            String[] longer = {"abcd", "a", "é"};
            Col[] next = {Col.ofStrings(longer, null), Col.ofLongs(DataType.INT32, new long[] {1, 7, 3}, null)};
            try (org.apache.arrow.vector.FieldVector s2 = next[0].write("s", allocator);
                    org.apache.arrow.vector.FieldVector i2 = next[1].write("i", allocator)) {
                assertThat(packed.groupIds(new org.apache.arrow.vector.FieldVector[] {s2, i2}, 3, new int[3], new long[3]))
                        .isFalse();
            }
            assertThat(packed.packsKeys()).isFalse();
            assertThat(packed.groupIds(next, 3)).containsExactly(hashed.groupIds(next, 3));
            assertThat(packed.groupIds(cols, n)).containsExactly(expected);
            assertThat(packed.groupCount()).isEqualTo(hashed.groupCount());
        }
    }

    /**
     * A string key of bytes that are not valid UTF-8 (a Parquet BYTE_ARRAY read as a string) finds
     * its group after the table leaves the packed form: the groups are rehashed from their stored
     * bytes, hashed as the hashed path hashes a row's bytes, never from a decoding of them (which
     * would replace the invalid bytes and hash something else).
     */
    @Test
    void invalidUtf8KeysFindTheirGroupsAfterLeavingThePackedForm() {
        byte[][] invalid = {{(byte) 0xC3}, {(byte) 0xFF, 'a'}, {'a', (byte) 0x80}, {(byte) 0xE2, (byte) 0x82}};
        DataType[] types = {DataType.UTF8};
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.VarCharVector first = new org.apache.arrow.vector.VarCharVector("s", allocator);
                org.apache.arrow.vector.VarCharVector longer = new org.apache.arrow.vector.VarCharVector("s", allocator)) {
            first.allocateNew();
            for (int r = 0; r < invalid.length; r++) {
                first.setSafe(r, invalid[r]);
            }
            first.setValueCount(invalid.length);
            GroupTable table = new GroupTable(types);
            int n = invalid.length;
            int[] ids = new int[n];
            assertThat(table.groupIds(new org.apache.arrow.vector.FieldVector[] {first}, n, ids, new long[n])).isTrue();
            assertThat(ids).containsExactly(0, 1, 2, 3);

            longer.allocateNew();
            longer.setSafe(0, "a key too long to pack".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            longer.setValueCount(1);
            assertThat(table.groupIds(new org.apache.arrow.vector.FieldVector[] {longer}, 1, new int[1], new long[1])).isFalse();
            assertThat(table.groupIds(new Col[1], new Utf8Bytes[] {Utf8Bytes.of(longer)}, 1, new int[1], new long[1]))
                    .containsExactly(4);

            int[] again = table.groupIds(new Col[1], new Utf8Bytes[] {Utf8Bytes.of(first)}, n, new int[n], new long[n]);
            assertThat(again).as("the same invalid bytes after the rehash").containsExactly(0, 1, 2, 3);
            assertThat(table.groupCount()).isEqualTo(5);
        }
    }

    /** Two string keys pack up to 3 bytes each; four do not fit a long with an integer beside them. */
    @Test
    void onlyShortStringKeysWithAtMostOneIntegerPack() {
        assertThat(new GroupTable(new DataType[] {DataType.UTF8, DataType.UTF8}).packsKeys()).isTrue();
        assertThat(new GroupTable(new DataType[] {DataType.UTF8, DataType.DATE32}).packsKeys()).isTrue();
        assertThat(new GroupTable(new DataType[] {DataType.UTF8, DataType.INT32, DataType.INT32}).packsKeys()).isFalse();
        assertThat(new GroupTable(new DataType[] {DataType.UTF8, DataType.INT64}).packsKeys()).isFalse();
        assertThat(new GroupTable(new DataType[] {DataType.INT32, DataType.INT32}).packsKeys()).isFalse();
    }

    private static boolean[] nullsOf(String[] values) {
        boolean[] nulls = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            nulls[i] = values[i] == null;
        }
        return nulls;
    }
}
