package io.sluice.operators.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Unary;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each {@link ArithmeticMode} on overflow, a zero divisor and malformed text: strict (DuckDB's),
 * Spark's ANSI mode (errors with Spark's classes), its non-ANSI mode (wrap-around, NULL) and TRY (NULL).
 */
class ArithmeticModeTest {
    private static RootAllocator allocator;
    private static Batch batch;

    @BeforeAll
    static void setUp() {
        allocator = new RootAllocator();
        Schema schema = new Schema(List.of(new Field("a", DataType.INT64), new Field("b", DataType.INT64),
                new Field("i", DataType.INT32), new Field("s", DataType.UTF8)));
        batch = Batch.of(schema, new Col[] {
                Col.ofLongs(DataType.INT64, new long[] {Long.MAX_VALUE, 7, 0, Long.MIN_VALUE}, new boolean[] {false, false, true, false}),
                Col.ofLongs(DataType.INT64, new long[] {1, 0, 0, -1}, null),
                Col.ofLongs(DataType.INT32, new long[] {Integer.MAX_VALUE, Integer.MIN_VALUE, 5, 0}, null),
                Col.ofStrings(new String[] {"12", "x1", " 3 ", null}, new boolean[] {false, false, false, true})}, 4, allocator);
    }

    @AfterAll
    static void tearDown() {
        batch.close();
        allocator.close();
    }

    @Test
    void overflowIsAnErrorInStrictAndAnsiModes() {
        Binary sum = new Binary(BinaryOp.ADD, new Column("a"), new Column("b"));
        assertThatThrownBy(() -> eval(sum)).hasMessageContaining("numeric overflow: (a + b)");
        assertThatThrownBy(() -> eval(mode(sum, ArithmeticMode.ANSI)))
                .hasMessageStartingWith("[ARITHMETIC_OVERFLOW] (a + b) overflows BIGINT")
                .hasMessageContaining("Use 'try_add'");
    }

    @Test
    void overflowWrapsInLegacyModeAndIsNullInTryMode() {
        Binary product = new Binary(BinaryOp.MULTIPLY, new Column("a"), Literal.of(2L));
        assertThat(values(eval(mode(product, ArithmeticMode.LEGACY)))).containsExactly(-2L, 14L, null, 0L);
        assertThat(values(eval(mode(product, ArithmeticMode.TRY)))).containsExactly(null, 14L, null, null);
        Binary sum = new Binary(BinaryOp.ADD, new Column("a"), new Column("b"));
        assertThat(values(eval(mode(sum, ArithmeticMode.LEGACY)))).containsExactly(Long.MIN_VALUE, 7L, null, Long.MAX_VALUE);
        assertThat(values(eval(mode(sum, ArithmeticMode.TRY)))).containsExactly(null, 7L, null, null);
    }

    @Test
    void intOperandsGiveIntResultsInSparkModes() {
        Binary sum = new Binary(BinaryOp.ADD, new Column("i"), new Cast(Literal.of(1L), DataType.INT32));
        assertThat(values(eval(sum))).containsExactly(2147483648L, -2147483647L, 6L, 1L);
        assertThatThrownBy(() -> eval(mode(sum, ArithmeticMode.ANSI))).hasMessageStartingWith("[ARITHMETIC_OVERFLOW]");
        assertThat(values(eval(mode(sum, ArithmeticMode.LEGACY)))).containsExactly(-2147483648L, -2147483647L, 6L, 1L);
        assertThat(values(eval(mode(sum, ArithmeticMode.TRY)))).containsExactly(null, -2147483647L, 6L, 1L);
        // Spark types the constant 1 INT, so i + 1 is INT arithmetic; past an INT it is BIGINT arithmetic
        assertThatThrownBy(() -> eval(new Binary(BinaryOp.ADD, new Column("i"), Literal.of(1L), ArithmeticMode.ANSI)))
                .hasMessageStartingWith("[ARITHMETIC_OVERFLOW] (i + 1) overflows INT");
        assertThat(values(eval(new Binary(BinaryOp.ADD, new Column("i"), Literal.of(1L << 31), ArithmeticMode.ANSI))))
                .containsExactly(4294967295L, 0L, 2147483653L, 2147483648L);
        Unary minus = new Unary(Unary.Op.NEGATE, new Column("i"), ArithmeticMode.ANSI);
        assertThatThrownBy(() -> eval(minus)).hasMessageStartingWith("[ARITHMETIC_OVERFLOW] -i overflows INT");
        assertThat(values(eval(new Unary(Unary.Op.NEGATE, new Column("i"), ArithmeticMode.LEGACY))))
                .containsExactly(-2147483647L, -2147483648L, -5L, 0L);
    }

    @Test
    void zeroDivisorIsAnErrorOnlyInAnsiMode() {
        for (BinaryOp op : List.of(BinaryOp.DIVIDE, BinaryOp.MODULO, BinaryOp.DIV)) {
            Binary quotient = new Binary(op, new Column("i"), new Column("b"));
            assertThat(values(eval(quotient)).get(1)).as("%s", op).isNull();
            assertThat(values(eval(mode(quotient, ArithmeticMode.LEGACY))).get(1)).as("%s", op).isNull();
            assertThat(values(eval(mode(quotient, ArithmeticMode.TRY))).get(1)).as("%s", op).isNull();
            assertThatThrownBy(() -> eval(mode(quotient, ArithmeticMode.ANSI)))
                    .hasMessageStartingWith(op == BinaryOp.MODULO ? "[REMAINDER_BY_ZERO]" : "[DIVIDE_BY_ZERO]")
                    .hasMessageContaining(quotient.toString());
        }
        // a NULL dividend over a zero divisor is NULL, not an error
        Schema schema = new Schema(List.of(new Field("n", DataType.INT64)));
        try (Batch nulls = Batch.of(schema, new Col[] {Col.allNull(DataType.INT64, 2)}, 2, allocator)) {
            Binary nullOverZero = new Binary(BinaryOp.DIVIDE, new Column("n"), Literal.of(0L), ArithmeticMode.ANSI);
            assertThat(ExprBinder.bind(nullOverZero, schema).evaluate(nulls).isNull(1)).isTrue();
        }
    }

    @Test
    void divIsExactIntegerDivisionTruncatedTowardZero() {
        Binary div = new Binary(BinaryOp.DIV, new Column("a"), Literal.of(2L));
        assertThat(values(eval(div))).containsExactly(Long.MAX_VALUE / 2, 3L, null, Long.MIN_VALUE / 2);
        assertThat(values(eval(new Binary(BinaryOp.DIV, Literal.of(-7L), Literal.of(2L))))).containsOnly(-3L);
        assertThat(values(eval(new Binary(BinaryOp.DIV, Literal.ofDecimal(new java.math.BigDecimal("7.5")), Literal.of(2L)))))
                .containsOnly(3L);
        Binary minOverMinusOne = new Binary(BinaryOp.DIV, new Column("a"), new Column("b"), ArithmeticMode.ANSI);
        assertThatThrownBy(() -> eval(minOverMinusOne)).hasMessageStartingWith("[DIVIDE_BY_ZERO]");
        assertThat(values(eval(mode(minOverMinusOne, ArithmeticMode.TRY)))).containsExactly(Long.MAX_VALUE, null, null, null);
    }

    @Test
    void malformedTextIsAnErrorOrNullByMode() {
        assertThatThrownBy(() -> eval(new Cast(new Column("s"), DataType.INT32))).hasMessage("cannot cast 'x1' to INTEGER");
        assertThatThrownBy(() -> eval(new Cast(new Column("s"), DataType.INT32, ArithmeticMode.ANSI)))
                .hasMessageStartingWith("[CAST_INVALID_INPUT] The value 'x1' of the type \"STRING\" cannot be cast to \"INT\"");
        assertThat(values(eval(new Cast(new Column("s"), DataType.INT32, ArithmeticMode.LEGACY)))).containsExactly(12L, null, 3L, null);
        assertThat(values(eval(new Cast(new Column("s"), DataType.INT64, ArithmeticMode.TRY)))).containsExactly(12L, null, 3L, null);
    }

    private static Binary mode(Binary b, ArithmeticMode mode) {
        return new Binary(b.op(), b.left(), b.right(), mode);
    }

    private static Col eval(Expr e) {
        return ExprBinder.bind(e, batch.schema()).evaluate(batch);
    }

    /** The values of a BIGINT or INT column (a DOUBLE one's as whole numbers), NULL as null. */
    private static List<Long> values(Col c) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < c.length; i++) {
            out.add(c.isNull(i) ? null : c.longs != null ? c.longs[i] : (long) c.doubles[i]);
        }
        return out;
    }
}
