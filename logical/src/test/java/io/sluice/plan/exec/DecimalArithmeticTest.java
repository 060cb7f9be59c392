package io.sluice.plan.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.plan.SluiceException;
import io.sluice.plan.expr.BinaryOp;
import io.sluice.plan.expr.TypeRules;
import io.sluice.plan.types.DataType;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Decimal (and integer) kernels are exact or fail: result types, rounding, overflow and NULL slots. */
class DecimalArithmeticTest {
    private static Col decimals(int precision, int scale, long... unscaled) {
        return Col.ofLongs(DataType.decimal(precision, scale), unscaled, null);
    }

    private static Object[] values(Col c) {
        Object[] out = new Object[c.length];
        for (int i = 0; i < c.length; i++) {
            out[i] = c.get(i) == null ? null : ((BigDecimal) c.get(i)).toPlainString();
        }
        return out;
    }

    private static Col apply(BinaryOp op, Col l, Col r) {
        return Kernels.arithmetic(op, l, r, TypeRules.arithmetic(op, l.type, r.type), () -> "l " + op.symbol() + " r");
    }

    @Test
    void resultTypesFollowSparkWithinEighteenDigits() {
        DataType price = DataType.decimal(15, 2);
        assertThat(TypeRules.arithmetic(BinaryOp.ADD, price, DataType.decimal(5, 4))).isEqualTo(DataType.decimal(18, 4));
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, DataType.decimal(8, 2), DataType.decimal(5, 4)))
                .isEqualTo(DataType.decimal(14, 6));
        // wider than 18: integer digits win, the scale keeps at least min(scale, 6)
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, price, price)).isEqualTo(DataType.decimal(18, 4));
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, DataType.decimal(12, 10), DataType.decimal(12, 10)))
                .isEqualTo(DataType.decimal(18, 13));
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, DataType.decimal(18, 6), DataType.decimal(16, 2)))
                .isEqualTo(DataType.decimal(18, 6));
    }

    @Test
    void productsKeepTheirValueWhenTheScaleIsCapped() {
        // 0.1234567891 * 0.5000000001 = 0.06172839456234567891 -> 13 places, rounded half away from zero
        Col f = decimals(12, 10, 1234567891L, -1234567891L);
        Col g = decimals(12, 10, 5000000001L, 5000000001L);
        Col product = apply(BinaryOp.MULTIPLY, f, g);
        assertThat(product.type).isEqualTo(DataType.decimal(18, 13));
        assertThat(values(product)).containsExactly("0.0617283945623", "-0.0617283945623");
        // half away from zero at the cut
        Col h = decimals(12, 10, 5L, -5L);
        Col tiny = decimals(12, 10, 1000000L, 1000000L); // 5e-10 * 1e-4 = 5e-14 -> 1e-13 / -1e-13
        assertThat(values(apply(BinaryOp.MULTIPLY, h, tiny))).containsExactly("0.0000000000001", "-0.0000000000001");
    }

    @Test
    void productsPastALongRoundBackIntoRange() {
        // 9999999999999999.99 * 2 does not fit decimal(18,2): an error, not a wrapped value
        Col big = decimals(18, 2, 999999999999999999L);
        Col two = decimals(1, 0, 2L);
        assertThatThrownBy(() -> apply(BinaryOp.MULTIPLY, big, two)).isInstanceOf(SluiceException.class)
                .hasMessage("numeric overflow: l * r does not fit decimal(18,2)");
        // 99999999.9999999999 * 2 keeps 8 places: 199999999.99999999998 rounds to 200000000.00000000
        assertThat(values(apply(BinaryOp.MULTIPLY, decimals(18, 10, 999999999999999999L), two)))
                .containsExactly("200000000.00000000");
        // a product wider than a long that rounds back: 0.999999999999999999^2 = 0.999999999999999998000...01
        Col nines = decimals(18, 18, 999999999999999999L);
        Col product = apply(BinaryOp.MULTIPLY, nines, nines);
        assertThat(product.type).isEqualTo(DataType.decimal(18, 17));
        assertThat(values(product)).containsExactly("1.00000000000000000");
    }

    @Test
    void sumsPastTheDeclaredPrecisionAreErrors() {
        Col max = decimals(18, 2, 999999999999999999L);
        Col cent = decimals(18, 2, 1L);
        assertThatThrownBy(() -> apply(BinaryOp.ADD, max, cent)).isInstanceOf(SluiceException.class)
                .hasMessage("numeric overflow: l + r does not fit decimal(18,2)");
        assertThat(values(apply(BinaryOp.SUBTRACT, max, cent))).containsExactly("9999999999999999.98");
    }

    @Test
    void nullSlotsAreNeverComputed() {
        // whatever lies under a NULL slot cannot overflow or fail
        Col l = Col.ofLongs(DataType.decimal(18, 2), new long[] {Long.MAX_VALUE, 150}, new boolean[] {true, false});
        Col r = decimals(18, 2, Long.MAX_VALUE, 200);
        assertThat(values(apply(BinaryOp.MULTIPLY, l, r))).containsExactly(null, "3.0000");
        assertThat(values(apply(BinaryOp.ADD, l, decimals(10, 4, 3, 3)))).containsExactly(null, "1.5003");
        Col ints = Col.ofLongs(DataType.INT64, new long[] {Long.MAX_VALUE, 2}, new boolean[] {true, false});
        assertThat(apply(BinaryOp.MULTIPLY, ints, ints).get(1)).isEqualTo(4L);
    }

    @Test
    void castsThatDoNotFitAreErrors() {
        Col v = decimals(18, 2, 123456789012345678L);
        assertThatThrownBy(() -> Kernels.cast(v, DataType.decimal(18, 6))).isInstanceOf(SluiceException.class)
                .hasMessage("numeric overflow: a decimal(18,2) value does not fit decimal(18,6)");
        assertThat(values(Kernels.cast(decimals(5, 3, 12345, -12345), DataType.decimal(4, 2))))
                .containsExactly("12.35", "-12.35");
    }

    @Test
    void comparisonsAcrossScalesNeverOverflow() {
        // 10^17 at scale 0 against 0.5 at scale 10: the common scale would need 28 digits
        Col whole = decimals(18, 0, 100000000000000000L, -100000000000000000L);
        Col half = decimals(11, 10, 5000000000L, 5000000000L);
        Col greater = Kernels.compare(BinaryOp.GT, whole, half);
        assertThat(greater.get(0)).isEqualTo(true);
        assertThat(greater.get(1)).isEqualTo(false);
    }

    @Test
    void negatingTheSmallestLongIsAnError() {
        Col min = Col.ofLongs(DataType.INT64, new long[] {Long.MIN_VALUE, 5}, null);
        assertThatThrownBy(() -> Kernels.negate(min, () -> "-x")).isInstanceOf(SluiceException.class)
                .hasMessage("numeric overflow: -x does not fit int64");
        Col underNull = Col.ofLongs(DataType.INT64, new long[] {Long.MIN_VALUE, 5}, new boolean[] {true, false});
        assertThat(Kernels.negate(underNull, () -> "-x").get(1)).isEqualTo(-5L);
    }
}
