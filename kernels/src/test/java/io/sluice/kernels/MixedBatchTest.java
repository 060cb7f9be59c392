package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A batch whose columns are held per column as heap columns, Arrow vectors or both (strings as
 * vectors and numbers on the heap, as a projection's computed columns next to passed-through ones): each column answers in its form, the root
 * is assembled from the vectors held plus the missing ones written, a gather keeps each column's
 * form, and the batch releases every vector it took (the allocator is empty after each test).
 */
class MixedBatchTest {
    private static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64), new Field("s", DataType.UTF8),
            new Field("t", DataType.UTF8));
    private static final String[] STRINGS = {"ascii", null, "größe", "", "日本語テキスト", "🙂 emoji", null, "z"};

    private RootAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private static Col ids() {
        long[] ids = new long[STRINGS.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i * 10L;
        }
        return Col.ofLongs(DataType.INT64, ids, null);
    }

    private static Col strings() {
        boolean[] nulls = new boolean[STRINGS.length];
        for (int i = 0; i < nulls.length; i++) {
            nulls[i] = STRINGS[i] == null;
        }
        return Col.ofStrings(STRINGS.clone(), nulls);
    }

    /** id on the heap, s as a vector only, t as both. */
    private Batch mixed() {
        Col t = strings();
        return Batch.of(SCHEMA, new Col[] {ids(), null, t},
                new FieldVector[] {null, strings().write("s", allocator), t.write("t", allocator)}, STRINGS.length,
                allocator);
    }

    private static List<Object> values(Col col) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < col.length; i++) {
            out.add(col.isNull(i) ? null : col.get(i));
        }
        return out;
    }

    @Test
    void eachColumnAnswersInTheFormItIsHeld() {
        try (Batch batch = mixed()) {
            assertThat(batch.hasArrow()).isTrue();
            assertThat(batch.arrowVector(0)).isNull();
            assertThat(batch.arrowVector(1)).isInstanceOf(VarCharVector.class);
            assertThat(batch.hasColumn(1)).isFalse();
            assertThat(values(batch.column(1))).containsExactly((Object[]) STRINGS); // unpacked on demand
            assertThat(batch.hasColumn(1)).isTrue();
            assertThat(batch.arrowVector(1)).isNotNull(); // and the vector is kept
            assertThat(batch.column(0).longs).containsExactly(0, 10, 20, 30, 40, 50, 60, 70);
        }
    }

    @Test
    void rootUsesTheHeldVectorsAndWritesOnlyTheMissingOnes() {
        try (Batch batch = mixed()) {
            FieldVector s = batch.arrowVector(1);
            FieldVector t = batch.arrowVector(2);
            VectorSchemaRoot root = batch.root();
            assertThat(root.getVector(1)).isSameAs(s);
            assertThat(root.getVector(2)).isSameAs(t);
            assertThat(batch.arrowVector(0)).isSameAs(root.getVector(0));
            assertThat(root.getRowCount()).isEqualTo(STRINGS.length);
            assertThat(root.getSchema().getFields().get(1).getName()).isEqualTo("s");
            assertThat(values(Col.read(root.getVector(0), DataType.INT64))).isEqualTo(values(ids()));
            assertThat(batch.root()).isSameAs(root);
        }
    }

    @Test
    void gatherKeepsEachColumnsForm() {
        int[] selected = {7, 0, 2, 1, 4};
        try (Batch batch = mixed(); Batch out = batch.gather(selected, selected.length, allocator)) {
            assertThat(out.rowCount()).isEqualTo(5);
            assertThat(out.arrowVector(0)).isNull();
            assertThat(out.arrowVector(1)).isInstanceOf(VarCharVector.class);
            assertThat(out.arrowVector(2)).isInstanceOf(VarCharVector.class);
            assertThat(out.hasColumn(1)).isFalse(); // a vector-only column stays so
            assertThat(out.hasColumn(2)).isTrue(); // a column held both ways keeps its decoded strings
            assertThat(out.column(0).longs).containsExactly(70, 0, 20, 10, 40);
            List<Object> expected = java.util.Arrays.asList("z", "ascii", "größe", null, "日本語テキスト");
            assertThat(values(out.column(1))).isEqualTo(expected);
            assertThat(values(out.column(2))).isEqualTo(expected);
        }
    }

    /**
     * Gathering a string vector (short values copied as whole words) gives the values a heap gather
     * gives: random lengths 0 to 20 around the 8-byte word, multi-byte characters, NULLs, repeated
     * and reordered rows, and a last value that ends at the data buffer's end.
     */
    @Test
    void gatheringStringVectorsAgreesWithTheHeapGather() {
        java.util.Random random = new java.util.Random(11);
        String alphabet = "abcxyzé€🙂";
        for (int round = 0; round < 20; round++) {
            int n = 1 + random.nextInt(300);
            String[] values = new String[n];
            boolean[] nulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                if (random.nextInt(10) == 0) {
                    nulls[i] = true;
                    continue;
                }
                StringBuilder b = new StringBuilder();
                for (int length = random.nextInt(21); b.length() < length; ) {
                    b.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
                }
                values[i] = b.toString();
            }
            Col heap = Col.ofStrings(values, nulls);
            int count = random.nextInt(2 * n + 1);
            int[] selected = new int[count];
            for (int i = 0; i < count; i++) {
                selected[i] = random.nextInt(n);
            }
            if (count > 0) {
                selected[count - 1] = n - 1; // the value at the end of the data buffer
            }
            Schema schema = Schema.of(new Field("s", DataType.UTF8));
            try (Batch batch = Batch.of(schema, new Col[1], new FieldVector[] {heap.write("s", allocator)}, n, allocator);
                    Batch out = batch.gather(selected, count, allocator)) {
                assertThat(out.hasColumn(0)).isFalse();
                assertThat(values(out.column(0))).isEqualTo(values(heap.gather(selected, count)));
            }
        }
    }

    @Test
    void gatherKeepsOnlyTheHeapFormOfAFixedWidthColumnHeldBothWays() {
        Col ids = ids();
        int[] selected = {3, 1};
        try (Batch batch = Batch.of(Schema.of(new Field("id", DataType.INT64)), new Col[] {ids},
                new FieldVector[] {ids.write("id", allocator)}, STRINGS.length, allocator);
                Batch out = batch.gather(selected, 2, allocator)) {
            assertThat(out.arrowVector(0)).isNull(); // its kernels read the heap form
            assertThat(out.column(0).longs).containsExactly(30, 10);
            assertThat(Col.read(out.root().getVector(0), DataType.INT64).longs).containsExactly(30, 10);
        }
    }

    @Test
    void closesEveryVectorOnceAndTakesOwnershipWhenRejected() {
        Batch batch = mixed();
        batch.close();
        batch.close(); // a second close does nothing
        assertThat(allocator.getAllocatedMemory()).isZero();
        FieldVector shortVector = strings().gather(new int[] {0, 1}, 2).write("s", allocator);
        assertThatThrownBy(() -> Batch.of(SCHEMA, new Col[] {ids(), null, strings()},
                new FieldVector[] {null, shortVector, null}, STRINGS.length, allocator))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("vector 1 has 2 rows");
        assertThatThrownBy(() -> Batch.of(SCHEMA, new Col[] {ids(), null, null}, new FieldVector[3], STRINGS.length,
                allocator)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("neither");
    }

    @Test
    void aBatchOfVectorsOnlyNeedsNoAllocator() {
        try (Batch batch = Batch.of(Schema.of(new Field("s", DataType.UTF8)), new Col[1],
                new FieldVector[] {strings().write("s", allocator)}, STRINGS.length, null)) {
            assertThat(batch.root().getVector(0)).isSameAs(batch.arrowVector(0));
        }
    }
}
