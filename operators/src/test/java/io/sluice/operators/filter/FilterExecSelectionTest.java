package io.sluice.operators.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.kernels.SelectionKernels;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Unary;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.Partitioning;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.ExprBinder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * A filter's conjuncts narrow one selection: comparisons read in place from Arrow vectors (against
 * constants and between columns) and conjuncts evaluated as columns (an OR, IS NULL) keep exactly
 * the rows where every conjunct is TRUE, NULLs dropping a row, in Arrow and heap batches alike;
 * string comparisons and LIKE on the bytes, and ANDs and ORs of them, narrow the selection too.
 */
class FilterExecSelectionTest {
    private static final Schema SCHEMA = Schema.of(new Field("a", DataType.INT64), new Field("d", DataType.decimal(15, 2)),
            new Field("b", DataType.INT64), new Field("x", DataType.FLOAT64), new Field("s", DataType.UTF8));
    private static final int BATCHES = 5;
    private static final int ROWS = 200;

    private static boolean isNull(int row, int column) {
        return (row + column) % (7 + column) == 0;
    }

    private static long a(int row) {
        return row % 50;
    }

    private static long d(int row) {
        return (row * 37L) % 1000; // 0.00 .. 9.99
    }

    private static long b(int row) {
        return (row * 13L) % 60;
    }

    private static double x(int row) {
        return (row % 17) - 8.5;
    }

    private static String s(int row) {
        return "k" + (row % 23) + (row % 3 == 0 ? "ü" : "");
    }

    private static MemorySourceExec source(boolean arrow) {
        List<Col[]> batches = new ArrayList<>();
        for (int k = 0; k < BATCHES; k++) {
            long[] as = new long[ROWS];
            long[] ds = new long[ROWS];
            long[] bs = new long[ROWS];
            double[] xs = new double[ROWS];
            String[] ss = new String[ROWS];
            boolean[][] nulls = new boolean[5][ROWS];
            for (int i = 0; i < ROWS; i++) {
                int row = k * ROWS + i;
                as[i] = a(row);
                ds[i] = d(row);
                bs[i] = b(row);
                xs[i] = x(row);
                for (int c = 0; c < 5; c++) {
                    nulls[c][i] = isNull(row, c);
                }
                ss[i] = nulls[4][i] ? null : s(row);
            }
            batches.add(new Col[] {Col.ofLongs(DataType.INT64, as, nulls[0]), Col.ofLongs(DataType.decimal(15, 2), ds, nulls[1]),
                    Col.ofLongs(DataType.INT64, bs, nulls[2]), Col.ofDoubles(xs, nulls[3]),
                    Col.ofStrings(ss, nulls[4])});
        }
        MemorySourceExec source = new MemorySourceExec(SCHEMA, List.of(batches), new Partitioning.Unknown(1), List.of());
        return arrow ? source.withArrowBatches() : source;
    }

    private static List<List<Object>> run(FilterExec filter) {
        List<List<Object>> out = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            TaskContext context = new TaskContext("filter", allocator, 64, Map.of());
            try (BatchStream stream = filter.execute(0, context)) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    try (Batch batch = next) {
                        for (int r = 0; r < batch.rowCount(); r++) {
                            out.add(Arrays.asList(batch.column(0).get(r), batch.column(2).get(r)));
                        }
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        return out;
    }

    private static Expr and(Expr... conjuncts) {
        Expr out = conjuncts[0];
        for (int i = 1; i < conjuncts.length; i++) {
            out = new Binary(BinaryOp.AND, out, conjuncts[i]);
        }
        return out;
    }

    @Test
    void conjunctsKeepTheRowsWhereEachIsTrue() {
        // a >= 10 AND 4.50 > d AND a < b AND x <= 2.0 AND (a = 12 OR d IS NULL OR b > 30)
        Expr predicate = and(new Binary(BinaryOp.GT_EQ, new Column("a"), Literal.of(10L)),
                new Binary(BinaryOp.GT, new Literal(450L, DataType.decimal(3, 2)), new Column("d")),
                new Binary(BinaryOp.LT, new Column("a"), new Column("b")),
                new Binary(BinaryOp.LT_EQ, new Column("x"), Literal.of(2.0)),
                new Binary(BinaryOp.OR, new Binary(BinaryOp.OR, new Binary(BinaryOp.EQ, new Column("a"), Literal.of(12L)),
                        new Unary(Unary.Op.IS_NULL, new Column("d"))), new Binary(BinaryOp.GT, new Column("b"), Literal.of(30L))));
        List<List<Object>> expected = new ArrayList<>();
        for (int row = 0; row < BATCHES * ROWS; row++) {
            boolean aNull = isNull(row, 0);
            boolean dNull = isNull(row, 1);
            boolean bNull = isNull(row, 2);
            boolean xNull = isNull(row, 3);
            boolean or = (!aNull && a(row) == 12) || dNull || (!bNull && b(row) > 30);
            if (!aNull && !dNull && !bNull && !xNull && a(row) >= 10 && d(row) < 450 && a(row) < b(row) && x(row) <= 2.0 && or) {
                expected.add(Arrays.asList(a(row), b(row)));
            }
        }
        assertThat(expected).as("the predicate keeps some rows, not all").isNotEmpty().hasSizeLessThan(BATCHES * ROWS / 4);
        for (boolean arrow : new boolean[] {true, false}) {
            assertThat(run(new FilterExec(source(arrow), predicate))).as(arrow ? "Arrow batches" : "heap batches")
                    .isEqualTo(expected);
        }
    }

    /**
     * Two bounds on one column are tested in one pass ({@link ConjunctSelection#pairBounds}): each
     * shape keeps the rows where every comparison is TRUE, NULLs dropped, constants on either side,
     * a third bound, an empty range, equality, NOT_EQ and a double column (those two not paired).
     */
    @Test
    void boundsOnOneColumnKeepTheRowsBetweenThem() {
        record Case(Expr predicate, java.util.function.IntPredicate keeps) {
        }
        Literal d250 = new Literal(250L, DataType.decimal(3, 2));
        Literal d700 = new Literal(700L, DataType.decimal(3, 2));
        List<Case> cases = List.of(
                new Case(and(new Binary(BinaryOp.GT_EQ, new Column("a"), Literal.of(10L)),
                        new Binary(BinaryOp.LT, new Column("a"), Literal.of(20L))),
                        row -> !isNull(row, 0) && a(row) >= 10 && a(row) < 20),
                // constants on the left, a decimal column, another column's bound between them
                new Case(and(new Binary(BinaryOp.LT, d250, new Column("d")), new Binary(BinaryOp.GT, new Column("b"), Literal.of(9L)),
                        new Binary(BinaryOp.GT_EQ, d700, new Column("d"))),
                        row -> !isNull(row, 1) && !isNull(row, 2) && d(row) > 250 && d(row) <= 700 && b(row) > 9),
                // a third bound on the same column
                new Case(and(new Binary(BinaryOp.GT, new Column("a"), Literal.of(5L)), new Binary(BinaryOp.LT_EQ, new Column("a"),
                        Literal.of(40L)), new Binary(BinaryOp.LT, new Column("a"), Literal.of(30L))),
                        row -> !isNull(row, 0) && a(row) > 5 && a(row) < 30),
                new Case(and(new Binary(BinaryOp.GT, new Column("a"), Literal.of(30L)), new Binary(BinaryOp.LT, new Column("a"),
                        Literal.of(20L))), row -> false),
                new Case(and(new Binary(BinaryOp.EQ, new Column("a"), Literal.of(12L)), new Binary(BinaryOp.LT_EQ, new Column("a"),
                        Literal.of(Long.MAX_VALUE))), row -> !isNull(row, 0) && a(row) == 12),
                new Case(and(new Binary(BinaryOp.NOT_EQ, new Column("a"), Literal.of(12L)), new Binary(BinaryOp.LT, new Column("a"),
                        Literal.of(15L))), row -> !isNull(row, 0) && a(row) != 12 && a(row) < 15),
                new Case(and(new Binary(BinaryOp.GT, new Column("x"), Literal.of(-3.0)), new Binary(BinaryOp.LT_EQ, new Column("x"),
                        Literal.of(4.5))), row -> !isNull(row, 3) && x(row) > -3.0 && x(row) <= 4.5),
                new Case(and(new Binary(BinaryOp.GT, new Column("a"), Literal.of(Long.MAX_VALUE)), new Binary(BinaryOp.GT_EQ,
                        new Column("a"), Literal.of(0L))), row -> false));
        for (Case c : cases) {
            List<List<Object>> expected = new ArrayList<>();
            for (int row = 0; row < BATCHES * ROWS; row++) {
                if (c.keeps().test(row)) {
                    expected.add(Arrays.asList(isNull(row, 0) ? null : a(row), isNull(row, 2) ? null : b(row)));
                }
            }
            for (boolean arrow : new boolean[] {true, false}) {
                assertThat(run(new FilterExec(source(arrow), c.predicate()))).as(c.predicate() + (arrow ? " over Arrow" : " over heap"))
                        .isEqualTo(expected);
            }
        }
        // the pairing itself: the first two bounds of a column in the first one's place, the third apart
        List<Expr> paired = ConjunctSelection.pairBounds(io.sluice.logical.expr.Exprs.conjuncts(cases.get(2).predicate()));
        assertThat(paired).hasSize(2);
        assertThat(paired.get(0)).isInstanceOf(Binary.class).extracting(e -> ((Binary) e).op()).isEqualTo(BinaryOp.AND);
        assertThat(ConjunctSelection.pairBounds(io.sluice.logical.expr.Exprs.conjuncts(cases.get(1).predicate()))).hasSize(2);
    }

    @Test
    void aConjunctNoRowPassesEndsTheBatchAndAllPassingPassesItThrough() {
        Expr none = and(new Binary(BinaryOp.LT, new Column("a"), Literal.of(-1L)), new Unary(Unary.Op.IS_NULL, new Column("x")));
        assertThat(run(new FilterExec(source(true), none))).isEmpty();
        Expr all = new Binary(BinaryOp.GT_EQ, new Column("x"), Literal.of(-100.0));
        long expected = 0;
        for (int row = 0; row < BATCHES * ROWS; row++) {
            expected += isNull(row, 3) ? 0 : 1;
        }
        assertThat(run(new FilterExec(source(true), all))).hasSize((int) expected);
    }

    /**
     * {@code b <> 0 AND a % b = 1} with Spark's ANSI remainder, which fails on a zero divisor: the
     * remainder is evaluated only on the rows the first conjunct kept (in place over Arrow batches,
     * as a column over heap batches), so the filter keeps its rows and fails on none.
     */
    @Test
    void aConjunctThatMayFailSeesOnlyTheRowsTheConjunctsBeforeItKept() {
        Expr predicate = and(new Binary(BinaryOp.NOT_EQ, new Column("b"), Literal.of(0L)),
                new Binary(BinaryOp.EQ, new Binary(BinaryOp.MODULO, new Column("a"), new Column("b"), ArithmeticMode.ANSI),
                        Literal.of(1L)));
        List<List<Object>> expected = new ArrayList<>();
        int zeros = 0;
        for (int row = 0; row < BATCHES * ROWS; row++) {
            zeros += !isNull(row, 0) && !isNull(row, 2) && b(row) == 0 ? 1 : 0;
            if (!isNull(row, 0) && !isNull(row, 2) && b(row) != 0 && a(row) % b(row) == 1) {
                expected.add(Arrays.asList(a(row), b(row)));
            }
        }
        assertThat(zeros).as("rows whose divisor is zero").isPositive();
        assertThat(expected).as("the predicate keeps some rows, not all").isNotEmpty().hasSizeLessThan(BATCHES * ROWS / 2);
        for (boolean arrow : new boolean[] {true, false}) {
            assertThat(run(new FilterExec(source(arrow), predicate))).as(arrow ? "Arrow batches" : "heap batches")
                    .isEqualTo(expected);
        }
    }

    @Test
    void stringComparisonsLikeAndNestedOrsKeepTheRowsWhereThePredicateIsTrue() {
        // a <> 0 AND s <> 'k7' AND ((s = 'k5' AND a > 3) OR (s LIKE 'k1%ü' AND (x < 0.0 OR b = 7)) OR s > 'k8')
        Expr predicate = and(new Binary(BinaryOp.NOT_EQ, new Column("a"), Literal.of(0L)),
                new Binary(BinaryOp.NOT_EQ, new Column("s"), Literal.of("k7")),
                new Binary(BinaryOp.OR, new Binary(BinaryOp.OR,
                        and(new Binary(BinaryOp.EQ, new Column("s"), Literal.of("k5")),
                                new Binary(BinaryOp.GT, new Column("a"), Literal.of(3L))),
                        and(new Like(new Column("s"), "k1%ü", false, false),
                                new Binary(BinaryOp.OR, new Binary(BinaryOp.LT, new Column("x"), Literal.of(0.0)),
                                        new Binary(BinaryOp.EQ, new Column("b"), Literal.of(7L))))),
                        new Binary(BinaryOp.GT, new Column("s"), Literal.of("k8"))));
        List<List<Object>> expected = new ArrayList<>();
        for (int row = 0; row < BATCHES * ROWS; row++) {
            boolean aOk = !isNull(row, 0);
            boolean sOk = !isNull(row, 4);
            String s = s(row);
            boolean first = sOk && s.equals("k5") && aOk && a(row) > 3;
            boolean second = sOk && s.startsWith("k1") && s.endsWith("ü")
                    && ((!isNull(row, 3) && x(row) < 0.0) || (!isNull(row, 2) && b(row) == 7));
            boolean third = sOk && s.compareTo("k8") > 0;
            if (aOk && a(row) != 0 && sOk && !s.equals("k7") && (first || second || third)) {
                expected.add(Arrays.asList(a(row), isNull(row, 2) ? null : b(row)));
            }
        }
        assertThat(expected).as("the predicate keeps some rows, not all").isNotEmpty().hasSizeLessThan(BATCHES * ROWS / 3);
        for (boolean arrow : new boolean[] {true, false}) {
            assertThat(run(new FilterExec(source(arrow), predicate))).as(arrow ? "Arrow batches" : "heap batches")
                    .isEqualTo(expected);
        }
        try (BufferAllocator allocator = new RootAllocator();
                BatchStream stream = source(true).execute(0, new TaskContext("filter", allocator, 64, Map.of()));
                Batch batch = stream.next()) {
            int[] selection = new int[batch.rowCount()];
            int all = SelectionKernels.all(selection, batch.rowCount());
            assertThat(ExprBinder.bind(predicate, SCHEMA).narrowSelection(batch, selection, all))
                    .as("the whole predicate narrows in place over Arrow batches").isBetween(1, all - 1);
        }
    }
}
