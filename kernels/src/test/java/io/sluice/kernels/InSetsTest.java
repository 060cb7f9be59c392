package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/**
 * The IN-list sets answer membership as a {@link Set} of the same constants does, in both of a
 * {@link LongInSet}'s forms (bitmap over a narrow range, hash table over a wide one, extreme longs
 * included) and for a {@link StringInSet} on Arrow bytes and on heap strings alike (lengths past
 * 63 bytes, multi-byte characters, the empty string); the selection loops keep exactly the
 * non-NULL members (or non-members when negated).
 */
class InSetsTest {
    private final Random random = new Random(11);

    @Test
    void aNarrowRangeIsABitmapAndAWideOneAHashTableAndBothAnswerAsASet() {
        assertAnswersAsSet(new long[] {49, 14, 23, 45, 19, 3, 36, 9}, 0, 60);
        assertAnswersAsSet(new long[] {-5, 0, 7, 7, 65_000}, -10, 65_010);
        assertAnswersAsSet(new long[] {1, 3, 100_000, 5_000_000, -7}, -20, 20);
        assertAnswersAsSet(new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE, 0}, -20, 20);
        // a repeated smallest item must not make the next value the empty-slot marker
        assertAnswersAsSet(new long[] {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 0}, -20, 20);
        long[] many = new long[5000];
        for (int i = 0; i < many.length; i++) {
            many[i] = random.nextLong() % 1_000_000_000L;
        }
        assertAnswersAsSet(many, -1000, 1000);
    }

    private void assertAnswersAsSet(long[] values, long probeFrom, long probeTo) {
        LongInSet set = LongInSet.of(values);
        Set<Long> expected = new HashSet<>();
        for (long v : values) {
            expected.add(v);
            assertThat(set.contains(v)).as("member %d", v).isTrue();
        }
        for (long v = probeFrom; v <= probeTo; v++) {
            assertThat(set.contains(v)).as("%d", v).isEqualTo(expected.contains(v));
        }
        for (long v : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 2, Long.MAX_VALUE - 1}) {
            assertThat(set.contains(v)).as("%d", v).isEqualTo(expected.contains(v));
        }
        for (int i = 0; i < 10_000; i++) {
            long v = random.nextLong();
            assertThat(set.contains(v)).as("%d", v).isEqualTo(expected.contains(v));
        }
    }

    @Test
    void longSelectionKeepsNonNullMembersOrNonMembers() {
        LongInSet set = LongInSet.of(new long[] {2, 5, 1_000_000});
        long[] values = {2, 3, 5, 1_000_000, 2, 7};
        boolean[] nulls = {false, false, true, false, false, false};
        assertThat(selected(set, values, nulls, false)).containsExactly(0, 3, 4);
        assertThat(selected(set, values, nulls, true)).containsExactly(1, 5);
        try (BufferAllocator allocator = new RootAllocator(); BigIntVector v = new BigIntVector("v", allocator)) {
            v.allocateNew(values.length);
            for (int i = 0; i < values.length; i++) {
                if (nulls[i]) {
                    v.setNull(i);
                } else {
                    v.set(i, values[i]);
                }
            }
            v.setValueCount(values.length);
            InPlaceValues column = InPlaceValues.of(v, DataType.INT64);
            int[] selection = {0, 2, 3, 5};
            assertThat(Arrays.copyOf(selection, set.select(column, false, selection, 4))).containsExactly(0, 3);
            selection = new int[] {0, 1, 2, 3, 4, 5};
            assertThat(Arrays.copyOf(selection, set.select(column, true, selection, 6))).containsExactly(1, 5);
        }
    }

    private static int[] selected(LongInSet set, long[] values, boolean[] nulls, boolean negated) {
        int[] selection = new int[values.length];
        int kept = set.select(values, nulls, negated, selection, SelectionKernels.all(selection, values.length));
        return Arrays.copyOf(selection, kept);
    }

    @Test
    void stringsAreLookedUpByTheirBytesOnArrowAndByValueOnTheHeap() {
        String longText = "x".repeat(63) + "é";
        List<String> constants = List.of("MAIL", "SHIP", "", "é", longText, "x".repeat(70), "MAIL", "8 bytes!",
                "SM PKG", "SM PACK", "nine byte");
        StringInSet set = StringInSet.of(constants);
        List<String> rows = new ArrayList<>(List.of("MAIL", "SHIP", "RAIL", "", "é", "e", longText, "x".repeat(64),
                "x".repeat(70), "x".repeat(71), "MAI", "MAILS", "mail", "8 bytes!", "8 bytes?", "8 bytes", "SM PKG", "SM PKGS",
                "SM PACK", "nine byte", "nine bytes", "nine-byte"));
        for (int i = 0; i < 200; i++) {
            rows.add(Integer.toString(random.nextInt(1000), 36));
        }
        rows.add(null);
        Set<String> expected = new HashSet<>(constants);
        String[] values = rows.toArray(new String[0]);
        boolean[] nulls = new boolean[values.length];
        nulls[values.length - 1] = true;
        try (BufferAllocator allocator = new RootAllocator(); VarCharVector v = new VarCharVector("s", allocator)) {
            v.allocateNew(values.length);
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    v.setNull(i);
                } else {
                    v.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
                }
            }
            v.setValueCount(values.length);
            for (boolean negated : new boolean[] {false, true}) {
                List<Integer> want = new ArrayList<>();
                for (int i = 0; i < values.length; i++) {
                    if (values[i] != null && expected.contains(values[i]) != negated) {
                        want.add(i);
                    }
                }
                int[] onArrow = new int[values.length];
                int kept = set.select(v, negated, onArrow, SelectionKernels.all(onArrow, values.length));
                assertThat(Arrays.stream(onArrow, 0, kept).boxed().toList()).as("negated %s", negated).isEqualTo(want);
                int[] onHeap = new int[values.length];
                kept = set.select(values, nulls, negated, onHeap, SelectionKernels.all(onHeap, values.length));
                assertThat(Arrays.stream(onHeap, 0, kept).boxed().toList()).as("negated %s", negated).isEqualTo(want);
            }
        }
    }
}
