package io.sluice.kernels;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.function.Supplier;

/**
 * Decimal kernels in 128 bits, for results of precision 19 to 38 once a value passes a long (the
 * long kernels in {@link Kernels} run first and come here only then). Addition and subtraction are
 * 128-bit word arithmetic with carries; a product of two longs is {@code Math.multiplyHigh} and the
 * low product; rows that need more (a product of wider operands, rounding a 128-bit product,
 * remainders) go through {@link BigInteger} one row at a time. Every result is checked against
 * its declared precision: past it is an error naming the expression.
 */
public final class Int128Kernels {
    private Int128Kernels() {
    }

    /** {@code l op r} for a decimal {@code result}; NULL rows are never computed. */
    static Col arithmetic(BinaryOp op, Col l, Col r, DataType result, boolean[] nulls, Supplier<String> expression) {
        int n = l.length;
        long[] hi = new long[n];
        long[] lo = new long[n];
        try {
            switch (op) {
                case ADD, SUBTRACT -> {
                    long[] ah = new long[n];
                    long[] al = new long[n];
                    long[] bh = new long[n];
                    long[] bl = new long[n];
                    scaled(l, result.scale(), ah, al, nulls);
                    scaled(r, result.scale(), bh, bl, nulls);
                    boolean subtract = op == BinaryOp.SUBTRACT;
                    for (int i = 0; i < n; i++) {
                        if (nulls != null && nulls[i]) {
                            continue;
                        }
                        long yh = bh[i];
                        long yl = bl[i];
                        if (subtract) {
                            yh = ~yh + (yl == 0 ? 1 : 0);
                            yl = -yl;
                        }
                        long sum = al[i] + yl;
                        hi[i] = Int128.addHigh(ah[i], al[i], yh, sum);
                        lo[i] = sum;
                    }
                }
                case MULTIPLY -> {
                    int ls = scaleOf(l);
                    int rs = scaleOf(r);
                    int drop = ls + rs - result.scale();
                    for (int i = 0; i < n; i++) {
                        if (nulls != null && nulls[i]) {
                            continue;
                        }
                        long ah = l.high(i);
                        long al = l.low(i);
                        long bh = r.high(i);
                        long bl = r.low(i);
                        if (drop == 0 && Int128.fitsLong(ah, al) && Int128.fitsLong(bh, bl)) {
                            hi[i] = Math.multiplyHigh(al, bl);
                            lo[i] = al * bl;
                        } else {
                            BigInteger exact = new BigDecimal(Int128.toBigInteger(ah, al).multiply(Int128.toBigInteger(bh, bl)), ls + rs)
                                    .setScale(result.scale(), RoundingMode.HALF_UP).unscaledValue();
                            hi[i] = Int128.high(exact);
                            lo[i] = Int128.low(exact);
                        }
                    }
                }
                case MODULO -> {
                    boolean[] outNulls = nulls == null ? new boolean[n] : nulls.clone();
                    boolean any = false;
                    for (int i = 0; i < n; i++) {
                        if (outNulls[i]) {
                            continue;
                        }
                        BigDecimal a = Int128.toBigDecimal(l.high(i), l.low(i), scaleOf(l));
                        BigDecimal b = Int128.toBigDecimal(r.high(i), r.low(i), scaleOf(r));
                        if (b.signum() == 0) {
                            outNulls[i] = true;
                            any = true;
                            continue;
                        }
                        BigInteger rem = a.remainder(b).setScale(result.scale(), RoundingMode.HALF_UP).unscaledValue();
                        hi[i] = Int128.high(rem);
                        lo[i] = Int128.low(rem);
                    }
                    nulls = any || nulls != null ? outNulls : null;
                }
                default -> throw new IllegalArgumentException(op + " does not yield " + result);
            }
        } catch (ArithmeticException e) {
            throw Kernels.overflow(expression, result);
        }
        Col col = Col.ofInt128(result, hi, lo, nulls);
        Kernels.checkPrecision(col, expression);
        return col;
    }

    private static int scaleOf(Col c) {
        return c.type.kind() == Kind.DECIMAL ? c.type.scale() : 0;
    }

    /**
     * An integer or decimal column's values at {@code targetScale} as 128-bit words, rounding half
     * away from zero when the scale drops; NULL rows are left 0. A value past 128 bits is an
     * {@link ArithmeticException}.
     */
    public static void scaled(Col c, int targetScale, long[] hi, long[] lo, boolean[] skip) {
        int scale = scaleOf(c);
        int n = c.length;
        if (scale == targetScale) {
            for (int i = 0; i < n; i++) {
                hi[i] = c.high(i);
                lo[i] = c.low(i);
            }
            return;
        }
        int up = targetScale - scale;
        long factor = up > 0 && up <= 18 ? io.sluice.common.types.TypeRules.pow10(up) : 0;
        for (int i = 0; i < n; i++) {
            if ((skip != null && skip[i]) || c.isNull(i)) {
                continue;
            }
            long h = c.high(i);
            long l = c.low(i);
            if (factor != 0 && Int128.fitsLong(h, l)) {
                hi[i] = Math.multiplyHigh(l, factor);
                lo[i] = l * factor;
            } else {
                BigInteger v = Int128.toBigDecimal(h, l, scale).setScale(targetScale, RoundingMode.HALF_UP).unscaledValue();
                hi[i] = Int128.high(v);
                lo[i] = Int128.low(v);
            }
        }
    }

    /** Any number or text to a decimal of precision 19 to 38; a value past the precision is an error naming it. */
    static Col castToDecimal(Col c, DataType target) {
        int n = c.length;
        long[] hi = new long[n];
        long[] lo = new long[n];
        switch (c.type.kind()) {
            case INT32, INT64, DECIMAL -> {
                try {
                    scaled(c, target.scale(), hi, lo, null);
                } catch (ArithmeticException e) {
                    throw new SluiceException("numeric overflow: a " + c.type + " value does not fit " + target);
                }
            }
            case FLOAT64, UTF8 -> {
                for (int i = 0; i < n; i++) {
                    if (c.isNull(i)) {
                        continue;
                    }
                    String text = c.type.kind() == Kind.UTF8 ? c.strings[i].trim() : null;
                    try {
                        BigDecimal v = text != null ? new BigDecimal(text) : BigDecimal.valueOf(c.doubles[i]);
                        BigInteger u = v.setScale(target.scale(), RoundingMode.HALF_UP).unscaledValue();
                        hi[i] = Int128.high(u);
                        lo[i] = Int128.low(u);
                    } catch (NumberFormatException | ArithmeticException e) {
                        throw new SluiceException("cannot cast '" + (text != null ? text : c.doubles[i]) + "' to " + target.sqlName());
                    }
                }
            }
            default -> throw new SluiceException("cannot cast " + c.type.sqlName() + " to " + target.sqlName());
        }
        Col col = Col.ofInt128(target, hi, lo, c.nulls);
        for (int i = 0; i < n; i++) {
            if (!c.isNull(i) && !Int128.fitsPrecision(col.high(i), col.low(i), target.precision())) {
                throw new SluiceException("value " + Int128.toBigDecimal(col.high(i), col.low(i), target.scale()).toPlainString()
                        + " does not fit " + target);
            }
        }
        return col;
    }
}
