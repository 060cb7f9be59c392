package io.sluice.operators.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Int128;
import io.sluice.kernels.Kernels;
import io.sluice.kernels.ScalarKernels;
import io.sluice.logical.expr.AddInterval;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.DateTrunc;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Extract;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.expr.Unary;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A bound expression computes exactly what evaluating its logical expression node by node computes
 * ({@link #reference}): the same type, values, NULLs and errors (messages included), on heap batches
 * and on Arrow batches, for every operator
 * against columns and constants of each type (NULL constants, decimal scales, 128-bit decimals,
 * multi-byte UTF-8, NaN and -0.0, values at the edge of a long), and the common shapes bind to
 * physical nodes.
 */
class ExprBinderTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private static final int N = 12;

    private static final Schema SCHEMA = Schema.of(new Field("i", DataType.INT32), new Field("l", DataType.INT64),
            new Field("d", DataType.FLOAT64), new Field("m", DataType.decimal(12, 2)),
            new Field("w", DataType.decimal(38, 10)), new Field("s", DataType.UTF8), new Field("b", DataType.BOOL),
            new Field("t", DataType.DATE32), new Field("big", DataType.INT64));

    private static boolean[] nullsEvery(int k) {
        boolean[] nulls = new boolean[N];
        for (int i = 0; i < N; i++) {
            nulls[i] = i % k == k - 1;
        }
        return nulls;
    }

    private static Col[] columns() {
        long[] ints = {0, 1, -1, 899, 900, 901, Integer.MAX_VALUE, Integer.MIN_VALUE, 42, 7, -900, 3};
        long[] longs = {0, 5, -5, 1000, 999, 2, 1L << 40, -(1L << 40), 17, 900, 123456789L, -3};
        double[] doubles = {0.0, -0.0, Double.NaN, 0.1, 0.10000001, -1.5, 1e300, Double.POSITIVE_INFINITY, 2.5, 900, 0.05,
                -7};
        long[] money = {0, 5, 7, -7, 123456789012L, 99, 100, -100, 2450, 2400, 5, 1};
        String[] wide = {"0", "1.5", "-1.5", "12345678901234567890.1234567890", "-99999999999999999999.5", "0.0000000001",
                "24", "0.05", "2.5", "900", "7", "-3"};
        String[] strings = {"key-5", "", "wört", "€", "😀 smile", "\uE000x", "MAIL", "mail", "a%b_c", "日本語", "key-50", "z"};
        boolean[] bools = {true, false, true, false, true, false, true, false, true, false, true, false};
        long[] days = new long[N];
        for (int i = 0; i < N; i++) {
            days[i] = LocalDate.of(1994, 1, 1).toEpochDay() + i * 100 - 300;
        }
        long[] big = {Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE / 2, 1, 0, -1, Long.MAX_VALUE - 1, 3, 4, 5, 6, 7};
        long[] hi = new long[N];
        long[] lo = new long[N];
        for (int i = 0; i < N; i++) {
            BigInteger u = new BigDecimal(wide[i]).setScale(10).unscaledValue();
            hi[i] = Int128.high(u);
            lo[i] = Int128.low(u);
        }
        boolean[] stringNulls = nullsEvery(5);
        String[] s = strings.clone();
        for (int i = 0; i < N; i++) {
            s[i] = stringNulls[i] ? null : s[i];
        }
        return new Col[] {Col.ofLongs(DataType.INT32, ints, nullsEvery(4)), Col.ofLongs(DataType.INT64, longs, null),
                Col.ofDoubles(doubles, nullsEvery(6)), Col.ofLongs(DataType.decimal(12, 2), money, nullsEvery(3)),
                Col.ofInt128(DataType.decimal(38, 10), hi, lo, nullsEvery(7)), Col.ofStrings(s, stringNulls),
                Col.ofBools(bools, nullsEvery(4)), Col.ofLongs(DataType.DATE32, days, nullsEvery(5)),
                Col.ofLongs(DataType.INT64, big, null)};
    }

    private static final List<Literal> LITERALS = List.of(Literal.of(900), Literal.of(0), Literal.of(-1), Literal.of(2),
            Literal.of(Long.MAX_VALUE), new Literal(5L, DataType.INT32), Literal.of(1.5), Literal.of(0.0), Literal.of(-0.0),
            Literal.of(Double.NaN), Literal.of(0.1), Literal.ofDecimal(new BigDecimal("0.05")),
            Literal.ofDecimal(new BigDecimal("24")), Literal.ofDecimal(new BigDecimal("2.345")),
            Literal.ofDecimal(new BigDecimal("12345678901234567890.5")), Literal.ofDecimal(new BigDecimal("0")),
            new Literal(null, DataType.INT64), new Literal(null, DataType.decimal(12, 2)), Literal.nullValue(),
            new Literal(null, DataType.UTF8), Literal.of("MAIL"), Literal.of("wört"), Literal.of("€"), Literal.of("😀"),
            Literal.of("\uE000"), Literal.of(""), Literal.of("key-5"), Literal.of(true), new Literal(null, DataType.BOOL),
            Literal.ofDate(LocalDate.of(1994, 1, 1)));

    private static final List<BinaryOp> OPS = List.of(BinaryOp.values());

    /** Every operator on every column and constant, both ways round, and on pairs of columns, where it types. */
    private static List<Expr> binaries() {
        List<Expr> out = new ArrayList<>();
        for (Field f : SCHEMA.fields()) {
            Column c = new Column(f.name());
            for (BinaryOp op : OPS) {
                for (Literal k : LITERALS) {
                    out.add(new Binary(op, c, k));
                    out.add(new Binary(op, k, c));
                }
                for (Field g : SCHEMA.fields()) {
                    out.add(new Binary(op, c, new Column(g.name())));
                }
            }
        }
        return out;
    }

    private static List<Expr> others() {
        Column s = new Column("s");
        List<Expr> out = new ArrayList<>();
        for (String pattern : List.of("%5%", "key-%", "%ö%", "w_rt", "%", "", "€", "😀%", "%\uE000%", "MAIL", "a%b_c")) {
            for (boolean negated : List.of(false, true)) {
                for (boolean insensitive : List.of(false, true)) {
                    out.add(new Like(s, pattern, negated, insensitive));
                    out.add(new Like(new Substring(s, 2, null), pattern, negated, insensitive));
                }
            }
        }
        out.add(new Like(new Literal(null, DataType.UTF8), "%", false, false));
        for (Field f : SCHEMA.fields()) {
            Column c = new Column(f.name());
            for (Unary.Op op : Unary.Op.values()) {
                out.add(new Unary(op, c));
            }
            for (DataType t : List.of(DataType.INT64, DataType.INT32, DataType.FLOAT64, DataType.UTF8,
                    DataType.decimal(18, 4), DataType.decimal(38, 2), DataType.DATE32)) {
                out.add(new Cast(c, t));
            }
            out.add(new Alias(c, "renamed"));
        }
        for (long start : new long[] {-1, 0, 1, 2, 5, 100}) {
            for (Long length : new Long[] {null, 0L, 1L, 3L, 50L}) {
                out.add(new Substring(s, start, length));
            }
        }
        out.add(new Binary(BinaryOp.ADD, new Binary(BinaryOp.MULTIPLY, new Column("d"), Literal.of(1.5)), Literal.of(1.0)));
        out.add(new Binary(BinaryOp.MULTIPLY, new Column("m"), new Binary(BinaryOp.SUBTRACT, Literal.ofDecimal(BigDecimal.ONE),
                new Column("m"))));
        out.add(new Binary(BinaryOp.AND, new Binary(BinaryOp.LT, new Column("i"), Literal.of(900)),
                new Binary(BinaryOp.OR, new Column("b"), new Binary(BinaryOp.GT, new Column("d"), Literal.of(0.1)))));
        out.add(new Case(List.of(new Binary(BinaryOp.LT, new Column("i"), Literal.of(0))), List.of(new Column("m")),
                Literal.ofDecimal(new BigDecimal("1.5"))));
        out.add(new ScalarFunction(ScalarFunction.Function.UPPER, List.of(s)));
        // CASE with several branches, string and NULL results, no ELSE, constant conditions
        out.add(new Case(List.of(new Binary(BinaryOp.EQ, s, Literal.of("MAIL")), new Column("b"),
                new Binary(BinaryOp.GT, new Column("d"), Literal.of(0.1))), List.of(Literal.of("m"), s, new Literal(null, DataType.UTF8)),
                new Literal(null, DataType.UTF8)));
        out.add(new Case(List.of(Literal.of(true)), List.of(new Column("i")), new Column("l")));
        out.add(new Case(List.of(new Literal(null, DataType.BOOL), new Column("b")), List.of(new Column("w"), new Column("m")),
                Literal.ofDecimal(new BigDecimal("2.345"))));
        // every function on each column and constant that it types with
        List<Expr> args = new ArrayList<>();
        SCHEMA.fields().forEach(f -> args.add(new Column(f.name())));
        args.addAll(List.of(Literal.of("ö"), Literal.of(2), Literal.of("k"), new Literal(null, DataType.UTF8)));
        for (ScalarFunction.Function f : ScalarFunction.Function.values()) {
            for (Expr a : args) {
                addIfValid(out, () -> new ScalarFunction(f, List.of(a)));
                for (Expr b : args) {
                    addIfValid(out, () -> new ScalarFunction(f, List.of(a, b)));
                    addIfValid(out, () -> new ScalarFunction(f, List.of(a, b, s)));
                }
            }
        }
        for (Extract.Field field : Extract.Field.values()) {
            out.add(new Extract(field, new Column("t")));
        }
        for (io.sluice.common.types.TemporalValues.TruncUnit unit : io.sluice.common.types.TemporalValues.TruncUnit.values()) {
            out.add(new DateTrunc(unit, new Column("t")));
        }
        out.add(new AddInterval(new Column("t"), 3, 0, 0));
        out.add(new AddInterval(new Column("t"), 0, -40, 0));
        out.add(new Binary(BinaryOp.GT, new Extract(Extract.Field.YEAR, new AddInterval(new Column("t"), 12, 0, 0)), Literal.of(1994)));
        out.add(new Binary(BinaryOp.EQ, new ScalarFunction(ScalarFunction.Function.LOWER, List.of(s)), Literal.of("mail")));
        return out;
    }

    /**
     * IN lists over every column and over computed values: runs of the constants (NULLs, doubles and
     * 128-bit decimals among them, so some lists bind to sets and some to comparisons), lists built
     * to match rows of each type, and lists with a column among the items; IN and NOT IN alike.
     */
    private static List<Expr> inLists() {
        LocalDate day0 = LocalDate.of(1994, 1, 1).minusDays(300);
        List<List<Expr>> lists = new ArrayList<>();
        for (int size = 2; size <= 4; size++) {
            for (int from = 0; from + size <= LITERALS.size(); from++) {
                lists.add(List.copyOf(LITERALS.subList(from, from + size)));
            }
        }
        lists.add(List.of(Literal.of(899), Literal.of(-1), Literal.of(Integer.MIN_VALUE), Literal.of(17),
                Literal.of(Long.MIN_VALUE), Literal.of(1L << 40), new Literal(3L, DataType.INT32)));
        lists.add(List.of(Literal.ofDecimal(new BigDecimal("0.05")), Literal.ofDecimal(new BigDecimal("24.50")),
                Literal.ofDecimal(new BigDecimal("1.001")), Literal.of(1), Literal.ofDecimal(new BigDecimal("-1.000"))));
        lists.add(List.of(Literal.of("MAIL"), Literal.of("€"), Literal.of(""), Literal.of("key-50"), Literal.of("日本語")));
        lists.add(List.of(Literal.of("z"), Literal.of("mail"), new Literal(null, DataType.UTF8)));
        lists.add(List.of(Literal.ofDate(day0), Literal.ofDate(day0.plusDays(500)), Literal.ofDate(day0.plusDays(501))));
        lists.add(List.of(Literal.ofDate(day0.plusDays(100)), Literal.nullValue()));
        lists.add(List.of(new Column("i"), Literal.of(5)));
        List<Expr> values = new ArrayList<>();
        SCHEMA.fields().forEach(f -> values.add(new Column(f.name())));
        values.add(new Substring(new Column("s"), 1, 3L));
        values.add(new Binary(BinaryOp.ADD, new Column("l"), Literal.of(1)));
        List<Expr> out = new ArrayList<>();
        for (Expr value : values) {
            for (List<Expr> items : lists) {
                out.add(new InList(value, items, false));
                out.add(new InList(value, items, true));
            }
        }
        return out;
    }

    /** Adds the expression unless its constructor rejects it (a wrong number of arguments). */
    private static void addIfValid(List<Expr> out, java.util.function.Supplier<Expr> expr) {
        try {
            out.add(expr.get());
        } catch (RuntimeException rejected) {
            // not an expression SQL could produce
        }
    }

    @Test
    void boundExpressionsComputeWhatLogicalOnesCompute() {
        List<Expr> exprs = new ArrayList<>(binaries());
        exprs.addAll(others());
        exprs.addAll(inLists());
        int typed = 0;
        for (boolean arrow : List.of(false, true)) {
            // one batch per side for all expressions: a kernel that changed its input would show
            try (Batch logicalBatch = batch(arrow); Batch physicalBatch = batch(arrow)) {
                for (Expr e : exprs) {
                    try {
                        e.type(SCHEMA);
                    } catch (RuntimeException notTyped) {
                        continue;
                    }
                    typed++;
                    assertSame(e, () -> reference(e, logicalBatch), () -> ExprBinder.bind(e, SCHEMA).evaluate(physicalBatch),
                            arrow);
                }
            }
        }
        assertThat(typed).as("expressions that type").isGreaterThan(2000);
    }

    @Test
    void anInListNarrowsASelectionToTheRowsWhereItIsTrue() {
        int checked = 0;
        for (boolean arrow : List.of(false, true)) {
            try (Batch batch = batch(arrow)) {
                for (Expr e : inLists()) {
                    try {
                        e.type(SCHEMA);
                    } catch (RuntimeException notTyped) {
                        continue;
                    }
                    checked++;
                    Col expected = reference(e, batch);
                    int[] selection = new int[N];
                    int count = 0;
                    for (int row = 0; row < N; row += 2) {
                        selection[count++] = row; // every other row: the list reads only the selected ones
                    }
                    int kept = ExprBinder.bind(e, SCHEMA).keepTrue(batch, selection, count);
                    List<Integer> want = new ArrayList<>();
                    for (int row = 0; row < N; row += 2) {
                        if (!expected.isNull(row) && expected.bools[row]) {
                            want.add(row);
                        }
                    }
                    assertThat(java.util.Arrays.stream(selection, 0, kept).boxed().toList()).as("%s on %s", e,
                            arrow ? "Arrow" : "heap").isEqualTo(want);
                }
            }
        }
        assertThat(checked).as("IN lists that type").isGreaterThan(200);
    }

    private Batch batch(boolean arrow) {
        Col[] cols = columns();
        if (!arrow) {
            return Batch.of(SCHEMA, cols, N, allocator);
        }
        List<FieldVector> vectors = new ArrayList<>();
        for (int i = 0; i < cols.length; i++) {
            vectors.add(cols[i].write(SCHEMA.field(i).name(), allocator));
        }
        return new Batch(SCHEMA, new VectorSchemaRoot(SCHEMA.toArrow().getFields(), vectors, N));
    }

    /**
     * The reference the bound forms are checked against: the expression evaluated one node at a time,
     * as logical expressions were, children first and by name, with no constant scalars and no
     * in-place or Arrow fast path: arithmetic and comparisons by the column kernels, LIKE by its
     * regular expression. A CASE (which evaluates a branch only if a row takes it) is bound whole.
     */
    private static Col reference(Expr e, Batch batch) {
        if (e instanceof Column c) {
            return batch.column(c.column());
        }
        if (e instanceof Alias a) {
            return reference(a.input(), batch);
        }
        if (e instanceof Literal l) {
            return ScalarKernels.expand(ScalarLiteral.scalarOf(l), batch.rowCount());
        }
        if (e instanceof Binary b) {
            Col l = reference(b.left(), batch);
            Col r = reference(b.right(), batch);
            return switch (b.op().kind()) {
                case ARITHMETIC -> Kernels.arithmetic(b.op(), l, r, TypeRules.arithmetic(b.op(), l.type, r.type),
                        b::toString);
                case COMPARISON -> Kernels.compare(b.op(), l, r);
                case LOGICAL -> Kernels.logical(b.op(), l, r);
            };
        }
        if (e instanceof Unary u) {
            return UnaryExpr.apply(u.op(), reference(u.input(), batch), u::toString);
        }
        if (e instanceof Cast c) {
            return Kernels.cast(reference(c.input(), batch), c.type());
        }
        if (e instanceof InList in) {
            return reference(in.comparisons(), batch);
        }
        if (e instanceof Like l) {
            return LikeExpr.matches(reference(l.input(), batch), LikeExpr.toRegex(l.pattern(), l.caseInsensitive()),
                    l.negated());
        }
        if (e instanceof Substring s) {
            return SubstringExpr.apply(reference(s.input(), batch), s.start(), s.length());
        }
        ChildValuesFunction function = ExprBinder.childValuesFunction(e);
        if (function != null) {
            List<Col> children = new ArrayList<>();
            for (Expr child : e.children()) {
                children.add(reference(child, batch));
            }
            return function.apply(children, e.type(batch.schema()));
        }
        return ExprBinder.bind(e, batch.schema()).evaluate(batch);
    }

    private static void assertSame(Expr e, java.util.function.Supplier<Col> logical, java.util.function.Supplier<Col> physical,
            boolean arrow) {
        String what = e + (arrow ? " on Arrow" : " on heap");
        Col expected;
        try {
            expected = logical.get();
        } catch (RuntimeException error) {
            org.assertj.core.api.Assertions.assertThatThrownBy(physical::get).as(what)
                    .isInstanceOf(error.getClass()).hasMessage(error.getMessage());
            return;
        }
        Col actual = physical.get();
        if (!actual.type.equals(expected.type) || actual.length != expected.length) {
            org.assertj.core.api.Assertions.fail(what + ": " + actual.type + " x " + actual.length + " vs " + expected.type
                    + " x " + expected.length);
        }
        for (int i = 0; i < N; i++) {
            if (actual.isNull(i) != expected.isNull(i) || !Objects.equals(value(actual, i), value(expected, i))) {
                org.assertj.core.api.Assertions.fail(what + " row " + i + ": " + value(actual, i) + " vs " + value(expected, i));
            }
        }
    }

    /** A row's value; dates as their day numbers (a date plus a large number passes LocalDate's range). */
    private static Object value(Col c, int row) {
        return c.type.isTemporal() && !c.isNull(row) ? c.longs[row] : c.get(row);
    }

    @Test
    void commonShapesBindToPhysicalNodes() {
        Expr filter = new Binary(BinaryOp.AND, new Binary(BinaryOp.AND,
                new Binary(BinaryOp.LT, new Column("i"), Literal.of(900)),
                new Binary(BinaryOp.GT, new Column("d"), Literal.of(0.1))),
                new Like(new Column("s"), "%5%", false, false));
        PhysicalExpr bound = ExprBinder.bind(filter, SCHEMA);
        assertThat(bound.toString()).isEqualTo("(((i#0 < 900) AND (d#2 > 0.1)) AND s#5 LIKE \\Q5\\E)".replace("\\Q5\\E",
                ".*\\Q5\\E.*"));
        assertThat(ExprBinder.bind(new Binary(BinaryOp.EQ, Literal.of("MAIL"), new Column("s")), SCHEMA))
                .isInstanceOf(StringCompareExpr.class);
        assertThat(ExprBinder.bind(new Alias(new Binary(BinaryOp.ADD, new Binary(BinaryOp.MULTIPLY, new Column("d"),
                Literal.of(1.5)), Literal.of(1.0)), "e3"), SCHEMA).toString()).isEqualTo("((d#2 * 1.5) + 1.0)");
        assertThat(ExprBinder.bind(new Substring(new Column("s"), 5, 3L), SCHEMA)).isInstanceOf(SubstringExpr.class);
        assertThat(ExprBinder.bind(new ScalarFunction(ScalarFunction.Function.UPPER, List.of(new Column("s"))), SCHEMA))
                .isInstanceOf(ChildValuesExpr.class);
        assertThat(ExprBinder.bind(new Extract(Extract.Field.YEAR, new Column("t")), SCHEMA).toString())
                .isEqualTo("Extract[t#7]");
        assertThat(ExprBinder.bind(new Case(List.of(new Column("b")), List.of(new Column("i")), Literal.of(0)), SCHEMA))
                .isInstanceOf(CaseExpr.class);
        assertThat(ExprBinder.bind(new Column("nope"), SCHEMA)).isInstanceOf(UntypedExpr.class);
        List<Expr> strings = List.of(Literal.of("MAIL"), Literal.of("SHIP"), new Literal(null, DataType.UTF8));
        assertThat(ExprBinder.bind(new InList(new Column("s"), strings, false), SCHEMA)).isInstanceOf(InListExpr.class);
        assertThat(ExprBinder.bind(new InList(new Column("m"), List.of(Literal.of(1), Literal.ofDecimal(new BigDecimal("2.5"))),
                true), SCHEMA)).isInstanceOf(InListExpr.class);
        assertThat(ExprBinder.bind(new InList(new Column("t"), List.of(Literal.ofDate(LocalDate.of(1994, 1, 1)),
                Literal.ofDate(LocalDate.of(1995, 1, 1))), false), SCHEMA)).isInstanceOf(InListExpr.class);
        // a double, or an item that is not a constant: the comparisons the list means
        assertThat(ExprBinder.bind(new InList(new Column("d"), List.of(Literal.of(1.5), Literal.of(2.5)), false), SCHEMA))
                .isInstanceOf(BinaryExpr.class);
        assertThat(ExprBinder.bind(new InList(new Column("l"), List.of(new Column("i"), Literal.of(2)), false), SCHEMA))
                .isInstanceOf(BinaryExpr.class);
    }

    @Test
    void aBatchWithAnotherSchemaIsBoundToItsOwnColumns() {
        Schema swapped = Schema.of(new Field("b", DataType.INT64), new Field("a", DataType.INT64));
        BoundExprs bound = new BoundExprs(List.of(new Binary(BinaryOp.SUBTRACT, new Column("a"), new Column("b"))),
                Schema.of(new Field("a", DataType.INT64), new Field("b", DataType.INT64)));
        try (Batch batch = Batch.of(swapped, new Col[] {Col.ofLongs(DataType.INT64, new long[] {1}, null),
                Col.ofLongs(DataType.INT64, new long[] {10}, null)}, 1, allocator)) {
            assertThat(bound.evaluate(0, batch).get(0)).isEqualTo(9L);
        }
    }
}
