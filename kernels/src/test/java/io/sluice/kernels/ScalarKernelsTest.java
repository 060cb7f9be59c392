package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Column-against-constant kernels: values, NULLs and errors as the column kernels give them for
 * the constant on every row, and string comparisons on UTF-8 bytes as on strings.
 */
class ScalarKernelsTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private static Col one(DataType type, long value) {
        return Col.ofLongs(type, new long[] {value}, null);
    }

    private static List<Object> values(Col c) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < c.length; i++) {
            out.add(c.get(i) instanceof BigDecimal d ? d.toPlainString() : c.get(i));
        }
        return out;
    }

    private static Col arithmetic(BinaryOp op, Col column, Col scalar, boolean scalarOnLeft) {
        DataType result = scalarOnLeft ? TypeRules.arithmetic(op, scalar.type, column.type)
                : TypeRules.arithmetic(op, column.type, scalar.type);
        return ScalarKernels.arithmetic(op, column, scalar, scalarOnLeft, result, () -> "the expression");
    }

    @Test
    void decimalsAgainstConstantsKeepTheirScale() {
        Col price = Col.ofLongs(DataType.decimal(12, 2), new long[] {12345, -5, 0, 999}, new boolean[] {false, false, true, false});
        Col times = arithmetic(BinaryOp.MULTIPLY, price, one(DataType.decimal(3, 1), 15), false); // * 1.5
        assertThat(times.type).isEqualTo(DataType.decimal(16, 3));
        assertThat(values(times)).containsExactly("185.175", "-0.075", null, "14.985");
        Col plus = arithmetic(BinaryOp.ADD, price, one(DataType.INT64, 1), true); // 1 + price
        assertThat(values(plus)).containsExactly("124.45", "0.95", null, "10.99");
        Col minus = arithmetic(BinaryOp.SUBTRACT, price, one(DataType.decimal(4, 3), 1), true); // 0.001 - price
        assertThat(values(minus)).containsExactly("-123.449", "0.051", null, "-9.989");
        Col mod = arithmetic(BinaryOp.MODULO, price, one(DataType.INT64, 0), false);
        assertThat(values(mod)).containsOnlyNulls();
    }

    @Test
    void overflowIsAnErrorNamingTheExpressionOrTheWideForm() {
        Col big = Col.ofLongs(DataType.INT64, new long[] {Long.MAX_VALUE, 1}, null);
        assertThatThrownBy(() -> arithmetic(BinaryOp.ADD, big, one(DataType.INT64, 1), false))
                .isInstanceOf(SluiceException.class).hasMessageContaining("the expression");
        // past a long in a decimal(38, s) result: the 128-bit form, not an error
        Col wide = Col.ofLongs(DataType.decimal(20, 0), new long[] {Long.MAX_VALUE, 1}, null);
        Col sum = arithmetic(BinaryOp.ADD, wide, one(DataType.decimal(20, 0), Long.MAX_VALUE), false);
        assertThat(sum.isWide()).isTrue();
        assertThat(values(sum)).containsExactly("18446744073709551614", "9223372036854775808");
        // past the declared precision (decimal(3,0) + decimal(3,0) is decimal(4,0)) cannot happen; a product can
        Col small = Col.ofLongs(DataType.decimal(18, 0), new long[] {999_999_999_999_999_999L}, null);
        assertThat(values(arithmetic(BinaryOp.MULTIPLY, small, one(DataType.decimal(18, 0), 10), false)))
                .containsExactly("9999999999999999990");
    }

    @Test
    void nullConstantsGiveNull() {
        Col ints = Col.ofLongs(DataType.INT64, new long[] {1, 2}, null);
        assertThat(values(arithmetic(BinaryOp.ADD, ints, Col.allNull(DataType.INT64, 1), false))).containsOnlyNulls();
        assertThat(values(arithmetic(BinaryOp.ADD, ints, Col.allNull(DataType.NULL, 1), true))).containsOnlyNulls();
        assertThat(values(ScalarKernels.compare(BinaryOp.LT, ints, Col.allNull(DataType.INT64, 1), false))).containsOnlyNulls();
        assertThat(values(ScalarKernels.compare(BinaryOp.EQ, ints, Col.allNull(DataType.NULL, 1), true))).containsOnlyNulls();
    }

    @Test
    void floatsDivideByZeroToNullAndCompareInTotalOrder() {
        Col x = Col.ofDoubles(new double[] {1.0, -0.0, Double.NaN, 0.1}, null);
        assertThat(values(arithmetic(BinaryOp.DIVIDE, x, Col.ofDoubles(new double[] {0.0}, null), false))).containsOnlyNulls();
        assertThat(values(arithmetic(BinaryOp.DIVIDE, x, Col.ofDoubles(new double[] {2.0}, null), true)))
                .containsExactly(2.0, null, Double.NaN, 20.0);
        assertThat(values(ScalarKernels.compare(BinaryOp.GT, x, Col.ofDoubles(new double[] {0.0}, null), false)))
                .containsExactly(true, false, true, true); // -0.0 < 0.0 and NaN above all, as Double.compare
        assertThat(values(ScalarKernels.compare(BinaryOp.GT, x, one(DataType.INT32, 0), true)))
                .containsExactly(false, true, false, false); // 0 > x: 0 > -0.0 in Double.compare's order
    }

    @Test
    void stringBytesCompareAsStrings() {
        String[] strings = {"MAIL", "mail", "", "wört", "€", "😀", "\uE000", "日本", "MAI", "MAILS", null};
        boolean[] nulls = new boolean[strings.length];
        nulls[strings.length - 1] = true;
        Col heap = Col.ofStrings(strings, nulls);
        try (VarCharVector vector = (VarCharVector) heap.write("s", allocator)) {
            for (String constant : new String[] {"MAIL", "", "wört", "€", "😀", "\uE000", "日本", "Z"}) {
                for (BinaryOp op : new BinaryOp[] {BinaryOp.EQ, BinaryOp.NOT_EQ, BinaryOp.LT, BinaryOp.LT_EQ, BinaryOp.GT,
                        BinaryOp.GT_EQ}) {
                    Col expected = Kernels.compare(op, heap, ScalarKernels.expand(Col.ofStrings(new String[] {constant}, null),
                            strings.length));
                    assertThat(values(ScalarKernels.compare(op, heap, Col.ofStrings(new String[] {constant}, null), false)))
                            .as(op + " " + constant).isEqualTo(values(expected));
                    if (op == BinaryOp.EQ || op == BinaryOp.NOT_EQ || ArrowKernels.bytesOrderLikeStrings(constant)) {
                        assertThat(values(ArrowKernels.compareConstant(vector, constant.getBytes(
                                java.nio.charset.StandardCharsets.UTF_8), op))).as(op + " " + constant + " on bytes")
                                .isEqualTo(values(expected));
                    }
                }
            }
            // where the orders differ, so the byte path is not taken: U+E000 sorts after a surrogate pair in UTF-16 only
            assertThat(ArrowKernels.bytesOrderLikeStrings("\uE000")).isFalse();
            assertThat("😀".compareTo("\uE000")).isNegative();
        }
    }
}
