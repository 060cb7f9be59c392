package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;
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

    private static Col wide(int precision, int scale, String... values) {
        long[] hi = new long[values.length];
        long[] lo = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            java.math.BigInteger u = new BigDecimal(values[i]).setScale(scale).unscaledValue();
            hi[i] = Int128.high(u);
            lo[i] = Int128.low(u);
        }
        return Col.ofInt128(DataType.decimal(precision, scale), hi, lo, null);
    }

    @Test
    void resultTypesFollowSpark() {
        DataType price = DataType.decimal(15, 2);
        assertThat(TypeRules.arithmetic(BinaryOp.ADD, price, DataType.decimal(5, 4))).isEqualTo(DataType.decimal(18, 4));
        assertThat(TypeRules.arithmetic(BinaryOp.ADD, DataType.decimal(38, 2), DataType.decimal(38, 2)))
                .isEqualTo(DataType.decimal(38, 2));
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, DataType.decimal(8, 2), DataType.decimal(5, 4)))
                .isEqualTo(DataType.decimal(14, 6));
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, price, price)).isEqualTo(DataType.decimal(31, 4));
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, DataType.decimal(12, 10), DataType.decimal(12, 10)))
                .isEqualTo(DataType.decimal(25, 20));
        // wider than 38: integer digits win, the scale keeps at least min(scale, 6) (TPC-H's charge)
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, DataType.decimal(32, 4), DataType.decimal(16, 2)))
                .isEqualTo(DataType.decimal(38, 6));
        assertThat(TypeRules.arithmetic(BinaryOp.MULTIPLY, DataType.decimal(38, 10), DataType.decimal(38, 10)))
                .isEqualTo(DataType.decimal(38, 6));
    }

    @Test
    void productsKeepTheirValueWhenTheScaleIsCapped() {
        // 0.1234567891 * 0.5000000001 = 0.06172839456234567891 exactly at decimal(25,20)
        Col f = decimals(12, 10, 1234567891L, -1234567891L);
        Col g = decimals(12, 10, 5000000001L, 5000000001L);
        Col product = apply(BinaryOp.MULTIPLY, f, g);
        assertThat(product.type).isEqualTo(DataType.decimal(25, 20));
        assertThat(values(product)).containsExactly("0.06172839456234567891", "-0.06172839456234567891");
        // past 38 digits the scale is capped at 6, rounded half away from zero
        Col a = wide(38, 10, "1234.0000005", "-1234.0000005");
        Col one = wide(38, 10, "1", "1");
        Col capped = apply(BinaryOp.MULTIPLY, a, one);
        assertThat(capped.type).isEqualTo(DataType.decimal(38, 6));
        assertThat(values(capped)).containsExactly("1234.000001", "-1234.000001");
    }

    @Test
    void productsPastALongTakeTheWideForm() {
        // 9999999999999999.99 * 20 passes a long but fits decimal(21,2)
        Col big = decimals(18, 2, 999999999999999999L, -999999999999999999L);
        Col twenty = decimals(2, 0, 20L, 20L);
        Col product = apply(BinaryOp.MULTIPLY, big, twenty);
        assertThat(product.type).isEqualTo(DataType.decimal(21, 2));
        assertThat(product.isWide()).isTrue();
        assertThat(values(product)).containsExactly("199999999999999999.80", "-199999999999999999.80");
        Col nines = decimals(18, 18, 999999999999999999L);
        assertThat(values(apply(BinaryOp.MULTIPLY, nines, nines))).containsExactly("0.999999999999999998000000000000000001");
        // values that fit a long stay in the compact form whatever the declared precision
        Col small = apply(BinaryOp.MULTIPLY, decimals(18, 2, 150), decimals(18, 2, 200));
        assertThat(small.type).isEqualTo(DataType.decimal(37, 4));
        assertThat(small.isWide()).isFalse();
        assertThat(values(small)).containsExactly("3.0000");
    }

    @Test
    void resultsPastThirtyEightDigitsAreErrors() {
        Col max = wide(38, 2, "999999999999999999999999999999999999.99", "-999999999999999999999999999999999999.99");
        Col cent = wide(38, 2, "0.01", "0.01");
        assertThatThrownBy(() -> apply(BinaryOp.ADD, max, cent)).isInstanceOf(SluiceException.class)
                .hasMessage("numeric overflow: l + r does not fit decimal(38,2)");
        assertThatThrownBy(() -> apply(BinaryOp.SUBTRACT, max.slice(1, 1), cent.slice(1, 1))).isInstanceOf(SluiceException.class)
                .hasMessage("numeric overflow: l - r does not fit decimal(38,2)");
        assertThat(values(apply(BinaryOp.SUBTRACT, max.slice(0, 1), cent.slice(0, 1))))
                .containsExactly("999999999999999999999999999999999999.98");
        assertThatThrownBy(() -> apply(BinaryOp.MULTIPLY, max, wide(38, 0, "10", "10"))).isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("numeric overflow: l * r does not fit decimal(38,");
        // within a long's range, the declared precision of a narrow type still holds
        Col narrow = decimals(18, 2, 999999999999999999L);
        assertThat(values(apply(BinaryOp.ADD, narrow, decimals(18, 2, 1L)))).containsExactly("10000000000000000.00");
        // negation and comparison in 128 bits
        assertThat(values(Kernels.negate(max, () -> "-x")))
                .containsExactly("-999999999999999999999999999999999999.99", "999999999999999999999999999999999999.99");
        Col lt = Kernels.compare(BinaryOp.LT, max, cent);
        assertThat(lt.get(0)).isEqualTo(false);
        assertThat(lt.get(1)).isEqualTo(true);
    }

    @Test
    void castsToAndFromTheWideForm() {
        Col v = wide(38, 2, "12345678901234567890123.45", "-0.05");
        assertThat(values(Kernels.cast(v, DataType.decimal(38, 1)))).containsExactly("12345678901234567890123.5", "-0.1");
        assertThatThrownBy(() -> Kernels.cast(v, DataType.decimal(20, 2))).isInstanceOf(SluiceException.class)
                .hasMessage("value 12345678901234567890123.45 does not fit decimal(20,2)");
        assertThatThrownBy(() -> Kernels.cast(v, DataType.decimal(18, 2))).isInstanceOf(SluiceException.class)
                .hasMessage("numeric overflow: a decimal(38,2) value does not fit decimal(18,2)");
        assertThat(Kernels.cast(v, DataType.FLOAT64).doubles[0]).isEqualTo(1.2345678901234567e22);
        assertThat(Kernels.cast(v, DataType.UTF8).strings).containsExactly("12345678901234567890123.45", "-0.05");
        Col text = Col.ofStrings(new String[] {"-98765432109876543210.123"}, null);
        assertThat(values(Kernels.cast(text, DataType.decimal(30, 3)))).containsExactly("-98765432109876543210.123");
    }

    @Test
    void wideColumnsRoundTripThroughArrow() {
        Col v = Col.ofInt128(DataType.decimal(38, 4), new long[] {0, -1, 5, 0}, new long[] {7, -7, 0, 0},
                new boolean[] {false, false, false, true});
        try (var allocator = new org.apache.arrow.memory.RootAllocator();
                var vector = v.write("x", allocator)) {
            Col back = Col.read(vector, v.type);
            assertThat(back.isWide()).isTrue();
            assertThat(values(back)).isEqualTo(values(v));
            assertThat(values(back)[2]).isEqualTo(Int128.toBigDecimal(5, 0, 4).toPlainString());
            assertThat(((org.apache.arrow.vector.DecimalVector) vector).getObject(1)).isEqualTo(new BigDecimal("-0.0007"));
        }
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
        assertThat(values(Kernels.cast(v, DataType.decimal(22, 6)))).containsExactly("1234567890123456.780000");
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
