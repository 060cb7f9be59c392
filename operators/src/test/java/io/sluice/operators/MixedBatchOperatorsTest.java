package io.sluice.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.filter.FilterExec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/**
 * A filter and a projection over batches in each form (Arrow, heap, and mixed: strings as vectors,
 * numbers on the heap, as a projection hands computed columns next to vectors it passes through): the same rows and values in every form, a
 * string column that comes as a vector leaves as a vector (gathered by the filter, shared by the
 * projection, never decoded), and every vector is released.
 */
class MixedBatchOperatorsTest {
    private static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64), new Field("s", DataType.UTF8));
    private static final String[] WORDS = {"größe", null, "alpha", "日本語 a", "", "beta", "🙂a"};

    private static String word(int row) {
        return WORDS[row % WORDS.length];
    }

    @Test
    void filterAndProjectionKeepStringsAsBytes() {
        List<Col[]> batches = new ArrayList<>();
        for (int b = 0; b < 6; b++) {
            int n = 100;
            long[] ids = new long[n];
            String[] strings = new String[n];
            boolean[] nulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                int row = b * n + i;
                ids[i] = row;
                strings[i] = word(row);
                nulls[i] = strings[i] == null;
            }
            batches.add(new Col[] {Col.ofLongs(DataType.INT64, ids, null), Col.ofStrings(strings, nulls)});
        }
        MemorySourceExec source = new MemorySourceExec(SCHEMA, List.of(batches), new Partitioning.Unknown(1), List.of())
                .withArrowBatches();
        Expr predicate = new Binary(BinaryOp.AND, new Binary(BinaryOp.LT, new Column("id"), Literal.of(550L)),
                new Like(new Column("s"), "%a%", false, false));
        ProjectionExec projection = new ProjectionExec(new FilterExec(source, predicate),
                List.of(new Alias(new Column("s"), "t"), new Alias(new Binary(BinaryOp.ADD, new Column("id"),
                        Literal.of(1L)), "next")));
        List<List<Object>> actual = new ArrayList<>();
        int vectorBatches = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            TaskContext context = new TaskContext("mixed", allocator, 64, Map.of());
            try (BatchStream stream = projection.execute(0, context)) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    try (Batch batch = next) {
                        if (batch.arrowVector(0) != null) {
                            assertThat(batch.arrowVector(0)).isInstanceOf(VarCharVector.class);
                            assertThat(batch.hasColumn(0)).isFalse(); // passed on as bytes, not decoded
                            vectorBatches++;
                        }
                        for (int r = 0; r < batch.rowCount(); r++) {
                            actual.add(Arrays.asList(batch.column(0).get(r), batch.column(1).get(r)));
                        }
                        batch.root(); // the root assembles the held vectors with the written ones
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        List<List<Object>> expected = new ArrayList<>();
        for (int row = 0; row < 550; row++) {
            String w = word(row);
            if (w != null && w.contains("a")) {
                expected.add(Arrays.asList(w, (long) row + 1));
            }
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(vectorBatches).isEqualTo(4); // the Arrow and the mixed batches among the six
    }
}
