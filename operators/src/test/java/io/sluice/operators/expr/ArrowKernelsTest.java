package io.sluice.operators.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Like;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The kernels over Arrow buffers agree with the heap-column forms: LIKE on UTF-8 bytes with the
 * regular-expression LIKE (multi-byte characters, NULLs), compaction to selected rows with
 * gathering heap columns, and string columns written and read back unchanged.
 */
class ArrowKernelsTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private static final String[] STRINGS = {"key-5", null, "", "Grüße", "日本語テキスト", "5", "über5ü", "a%b", "€€€",
            "naïve café", "𝄞 clef", "x\ny", "abcabc", null, "ab"};
    private static final String[] PATTERNS = {"%5%", "key-%", "%ü", "Grüße", "%", "", "%%", "日本%", "%テキスト",
            "%€%€%", "a%%b", "%é", "%𝄞%", "x%y", "abc%abc", "ab%ab", "%abc", "Gr%ß%", "%ü%5%", "_%", "%_ü%"};

    private Batch stringBatch(String[] values) {
        boolean[] nulls = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            nulls[i] = values[i] == null;
        }
        Schema schema = Schema.of(new Field("s", DataType.UTF8));
        Col col = Col.ofStrings(values.clone(), nulls);
        VectorSchemaRoot root = new VectorSchemaRoot(schema.toArrow().getFields(),
                List.of(col.write("s", allocator)), values.length);
        return new Batch(schema, root);
    }

    @Test
    void likeOnUtf8BytesMatchesLikeOnDecodedStrings() {
        try (Batch arrow = stringBatch(STRINGS);
                Batch heap = Batch.of(Schema.of(new Field("s", DataType.UTF8)),
                        new Col[] {Col.ofStrings(STRINGS.clone(), nullsOf(STRINGS))}, STRINGS.length, allocator)) {
            for (String pattern : PATTERNS) {
                for (boolean negated : new boolean[] {false, true}) {
                    Like like = new Like(new Column("s"), pattern, negated, false);
                    Col bytes = ExprBinder.bind(like, arrow.schema()).evaluate(arrow);
                    Col regex = ExprBinder.bind(like, heap.schema()).evaluate(heap);
                    for (int i = 0; i < STRINGS.length; i++) {
                        assertThat(bytes.isNull(i)).as(pattern + " row " + i).isEqualTo(regex.isNull(i));
                        if (!regex.isNull(i)) {
                            assertThat(bytes.bools[i]).as(pattern + " on " + STRINGS[i] + " negated " + negated)
                                    .isEqualTo(regex.bools[i]);
                        }
                    }
                }
            }
        }
    }

    @Test
    void bytePatternsLeaveUnderscoreToTheCaller() {
        assertThat(ArrowKernels.BytePattern.compile("a_b")).isNull();
        assertThat(ArrowKernels.BytePattern.compile("%ab%")).isNotNull();
    }

    @Test
    void gatherOfArrowColumnsEqualsGatherOfHeapColumns() {
        Schema schema = Schema.of(new Field("i", DataType.INT32), new Field("l", DataType.INT64),
                new Field("d", DataType.FLOAT64), new Field("s", DataType.UTF8), new Field("b", DataType.BOOL),
                new Field("m", DataType.decimal(12, 2)), new Field("t", DataType.DATE32));
        int n = 300;
        boolean[] nulls = new boolean[n];
        long[] ints = new long[n];
        double[] doubles = new double[n];
        String[] strings = new String[n];
        boolean[] bools = new boolean[n];
        for (int i = 0; i < n; i++) {
            nulls[i] = i % 7 == 3;
            ints[i] = i * 31 - 500;
            doubles[i] = i / 3.0;
            strings[i] = nulls[i] ? null : "wört-" + i + "€".repeat(i % 4);
            bools[i] = i % 3 == 0;
        }
        Col[] cols = {Col.ofLongs(DataType.INT32, ints, nulls), Col.ofLongs(DataType.INT64, ints, null),
                Col.ofDoubles(doubles, nulls), Col.ofStrings(strings, nulls), Col.ofBools(bools, nulls),
                Col.ofLongs(DataType.decimal(12, 2), ints, nulls), Col.ofLongs(DataType.DATE32, ints, null)};
        // runs of four and lone rows, every other row, one long run, lone rows far apart, runs of 40 at odd offsets
        java.util.List<java.util.function.IntPredicate> selections = List.of(i -> i % 5 != 1, i -> i % 2 == 0,
                i -> i > 0 && i < n - 1, i -> i % 97 == 13, i -> (i / 40) % 2 == 1 || i == 3);
        try (Batch heap = Batch.of(schema, cols, n, allocator)) {
            for (int p = 0; p < selections.size(); p++) {
                int[] selected = new int[n];
                int count = 0;
                for (int i = 0; i < n; i++) {
                    if (selections.get(p).test(i)) {
                        selected[count++] = i;
                    }
                }
                try (Batch compacted = new Batch(schema, ArrowKernels.gather(heap.root(), selected, count, allocator))) {
                    assertThat(compacted.rowCount()).isEqualTo(count);
                    for (int c = 0; c < cols.length; c++) {
                        Col expected = cols[c].gather(selected, count);
                        Col actual = compacted.column(c);
                        for (int r = 0; r < count; r++) {
                            assertThat(actual.get(r)).as("selection " + p + " column " + c + " row " + r)
                                    .isEqualTo(expected.get(r));
                        }
                    }
                }
            }
        }
    }

    @Test
    void stringColumnsRoundTripThroughArrow() {
        List<String> values = new ArrayList<>(java.util.Arrays.asList(STRINGS).subList(0, 6));
        values.add(null);
        String[] array = values.toArray(new String[0]);
        try (Batch arrow = stringBatch(array)) {
            Col back = arrow.column(0);
            for (int i = 0; i < array.length; i++) {
                assertThat(back.get(i)).isEqualTo(array[i]);
            }
        }
    }

    private static boolean[] nullsOf(String[] values) {
        boolean[] nulls = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            nulls[i] = values[i] == null;
        }
        return nulls;
    }
}
