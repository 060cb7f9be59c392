package io.sluice.kernels;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import io.sluice.common.types.TextCasts;
import io.sluice.common.types.TypeRules;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.Supplier;

/**
 * Vectorized kernels: one type dispatch per batch, then a tight loop over primitive arrays.
 * Integer overflow is an error ({@link NumericOverflowException}), as in DuckDB; division by zero
 * yields NULL. Spark's other modes are applied around these kernels ({@link TolerantArithmetic}).
 *
 * <p>Long on purpose: each public kernel is one type switch followed by one primitive loop per
 * type, and the loops must stay monomorphic and inlined (no per-row virtual call), so the per-type
 * copies cannot be folded behind an interface without costing the hot path.
 */
public final class Kernels {
    private Kernels() {
    }

    public static boolean[] mergeNulls(boolean[] a, boolean[] b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        boolean[] out = new boolean[a.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = a[i] | b[i];
        }
        return out;
    }

    /** Values as doubles (decimals unscaled). */
    public static double[] toDoubles(Col col) {
        if (col.type.kind() == Kind.FLOAT64) {
            return col.doubles;
        }
        double[] out = new double[col.length];
        if (col.isWide()) {
            double divisor = Math.pow(10, col.type.scale());
            for (int i = 0; i < out.length; i++) {
                out[i] = Int128.toDouble(col.highs[i], col.lows[i]) / divisor;
            }
            return out;
        }
        requireLongBacked(col);
        if (col.type.kind() == Kind.DECIMAL && col.type.scale() > 0) {
            double divisor = TypeRules.pow10(col.type.scale());
            for (int i = 0; i < out.length; i++) {
                out[i] = col.longs[i] / divisor;
            }
        } else {
            for (int i = 0; i < out.length; i++) {
                out[i] = col.longs[i];
            }
        }
        return out;
    }

    /**
     * Values as longs scaled to {@code targetScale} decimal places, rounding half away from zero
     * when the scale drops. NULL rows yield 0 (their slot may hold anything). A value that no longer
     * fits a long is an {@link ArithmeticException}, as is a column in the wide form.
     */
    public static long[] toScaledLongs(Col col, int targetScale) {
        if (col.isWide()) {
            throw new ArithmeticException("a value of " + col.type + " passes a long");
        }
        requireLongBacked(col);
        int scale = col.type.kind() == Kind.DECIMAL ? col.type.scale() : 0;
        if (scale == targetScale) {
            return col.longs;
        }
        boolean[] nulls = col.nulls;
        long[] out = new long[col.length];
        if (targetScale > scale) {
            long factor = TypeRules.pow10(targetScale - scale); // ArithmeticException past 10^18
            for (int i = 0; i < out.length; i++) {
                if (nulls == null || !nulls[i]) {
                    out[i] = Math.multiplyExact(col.longs[i], factor);
                }
            }
        } else {
            long divisor = TypeRules.pow10(scale - targetScale);
            for (int i = 0; i < out.length; i++) {
                out[i] = roundDiv(col.longs[i], divisor);
            }
        }
        return out;
    }

    private static long roundDiv(long value, long divisor) {
        long q = value / divisor;
        long rem = value % divisor;
        if (Math.abs(rem) >= divisor - Math.abs(rem)) {
            q += value < 0 ? -1 : 1;
        }
        return q;
    }

    private static void requireLongBacked(Col col) {
        if (!col.type.isLongBacked()) {
            throw new IllegalStateException("expected a numeric column, got " + col.type);
        }
    }

    /**
     * {@code l op r} as {@code result} (the type {@link TypeRules#arithmetic} gives). Integer and
     * decimal results are exact: a value past the result's range or declared precision is a
     * {@link SluiceException} naming {@code expression}, never a wrapped or truncated value. A
     * decimal product is rounded half away from zero when the result keeps fewer digits than
     * {@code s1 + s2}. NULL rows are never computed (their slots may hold anything).
     */
    public static Col arithmetic(BinaryOp op, Col l, Col r, DataType result, Supplier<String> expression) {
        int n = l.length;
        if (result.kind() == Kind.NULL || l.type.kind() == Kind.NULL || r.type.kind() == Kind.NULL) {
            return Col.allNull(result.kind() == Kind.NULL ? DataType.NULL : result, n);
        }
        boolean[] nulls = mergeNulls(l.nulls, r.nulls);
        if (op == BinaryOp.DIV) {
            return integerDivide(l, r, nulls, expression);
        }
        try {
            if (result.kind() == Kind.FLOAT64) {
                double[] a = toDoubles(l);
                double[] b = toDoubles(r);
                double[] out = new double[n];
                switch (op) {
                    case ADD -> { for (int i = 0; i < n; i++) out[i] = a[i] + b[i]; }
                    case SUBTRACT -> { for (int i = 0; i < n; i++) out[i] = a[i] - b[i]; }
                    case MULTIPLY -> { for (int i = 0; i < n; i++) out[i] = a[i] * b[i]; }
                    case DIVIDE, MODULO -> {
                        boolean[] divNulls = null;
                        for (int i = 0; i < n; i++) {
                            if (b[i] == 0) {
                                if (divNulls == null) {
                                    divNulls = nulls == null ? new boolean[n] : nulls.clone();
                                }
                                divNulls[i] = true;
                            } else {
                                out[i] = op == BinaryOp.DIVIDE ? a[i] / b[i] : a[i] % b[i];
                            }
                        }
                        if (divNulls != null) {
                            nulls = divNulls;
                        }
                    }
                    default -> throw new IllegalArgumentException(op + " is not arithmetic");
                }
                return Col.ofDoubles(out, nulls);
            }
            if (result.kind() == Kind.DECIMAL && (l.isWide() || r.isWide())) {
                return Int128Kernels.arithmetic(op, l, r, result, nulls, expression);
            }
            if (op == BinaryOp.MULTIPLY && result.kind() == Kind.DECIMAL) {
                try {
                    return multiplyDecimals(l, r, result, nulls, expression);
                } catch (ArithmeticException e) {
                    if (result.isWideDecimal()) {
                        return Int128Kernels.arithmetic(op, l, r, result, nulls, expression);
                    }
                    throw e;
                }
            }
            int scale = result.kind() == Kind.DECIMAL ? result.scale() : 0;
            long[] a = toScaledLongs(l, scale);
            long[] b = toScaledLongs(r, scale);
            long[] out = new long[n];
            switch (op) {
                case ADD -> { for (int i = 0; i < n; i++) if (nulls == null || !nulls[i]) out[i] = Math.addExact(a[i], b[i]); }
                case SUBTRACT -> { for (int i = 0; i < n; i++) if (nulls == null || !nulls[i]) out[i] = Math.subtractExact(a[i], b[i]); }
                case MULTIPLY -> { for (int i = 0; i < n; i++) if (nulls == null || !nulls[i]) out[i] = Math.multiplyExact(a[i], b[i]); }
                case MODULO -> {
                    boolean[] divNulls = null;
                    for (int i = 0; i < n; i++) {
                        if (b[i] == 0) {
                            if (divNulls == null) {
                                divNulls = nulls == null ? new boolean[n] : nulls.clone();
                            }
                            divNulls[i] = true;
                        } else {
                            out[i] = a[i] % b[i];
                        }
                    }
                    if (divNulls != null) {
                        nulls = divNulls;
                    }
                }
                default -> throw new IllegalArgumentException(op + " does not yield " + result);
            }
            Col col = Col.ofLongs(result, out, nulls);
            checkPrecision(col, expression);
            return col;
        } catch (ArithmeticException e) {
            if (result.isWideDecimal() && !l.isWide() && !r.isWide()) {
                // a value passed a long on the way: the batch again in 128 bits
                return Int128Kernels.arithmetic(op, l, r, result, nulls, expression);
            }
            throw overflow(expression, result);
        }
    }

    /**
     * Spark's {@code l DIV r}: the quotient truncated toward zero as a BIGINT, exact for longs and
     * decimals (both scaled to the larger scale, whose quotient is the integer one); NULL for a zero
     * divisor; a quotient past a long is a {@link NumericOverflowException}.
     */
    private static Col integerDivide(Col l, Col r, boolean[] nulls, Supplier<String> expression) {
        int n = l.length;
        long[] out = new long[n];
        boolean[] outNulls = nulls;
        if (l.type.kind() == Kind.FLOAT64 || r.type.kind() == Kind.FLOAT64) {
            double[] a = toDoubles(l);
            double[] b = toDoubles(r);
            for (int i = 0; i < n; i++) {
                if (b[i] == 0) {
                    outNulls = withNull(outNulls, nulls, n, i);
                } else if (nulls == null || !nulls[i]) {
                    double q = a[i] / b[i];
                    if (!(Math.abs(q) < 0x1p63)) {
                        throw overflow(expression, DataType.INT64);
                    }
                    out[i] = (long) q;
                }
            }
            return Col.ofLongs(DataType.INT64, out, outNulls);
        }
        long[] a;
        long[] b;
        try {
            int scale = Math.max(scaleOf(l.type), scaleOf(r.type));
            a = toScaledLongs(l, scale);
            b = toScaledLongs(r, scale);
        } catch (ArithmeticException e) {
            throw overflow(expression, DataType.INT64);
        }
        for (int i = 0; i < n; i++) {
            if (b[i] == 0) {
                outNulls = withNull(outNulls, nulls, n, i);
            } else if (a[i] == Long.MIN_VALUE && b[i] == -1 && (nulls == null || !nulls[i])) {
                throw overflow(expression, DataType.INT64);
            } else {
                out[i] = a[i] / b[i];
            }
        }
        return Col.ofLongs(DataType.INT64, out, outNulls);
    }

    private static int scaleOf(DataType type) {
        return type.kind() == Kind.DECIMAL ? type.scale() : 0;
    }

    /** {@code current} (a copy of {@code nulls} once one is made) with row {@code i} NULL. */
    private static boolean[] withNull(boolean[] current, boolean[] nulls, int n, int i) {
        boolean[] out = current == nulls ? (nulls == null ? new boolean[n] : nulls.clone()) : current;
        out[i] = true;
        return out;
    }

    /**
     * Decimal product: unscaled values multiply exactly to scale {@code s1 + s2}, then round to the
     * result's scale. A product past a long takes the BigDecimal path for that row only.
     */
    private static Col multiplyDecimals(Col l, Col r, DataType result, boolean[] nulls, Supplier<String> expression) {
        int n = l.length;
        int leftScale = l.type.kind() == Kind.DECIMAL ? l.type.scale() : 0;
        int rightScale = r.type.kind() == Kind.DECIMAL ? r.type.scale() : 0;
        int drop = leftScale + rightScale - result.scale();
        long divisor = dropDivisor(drop);
        long[] a = l.longs;
        long[] b = r.longs;
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = product(a[i], leftScale, b[i], rightScale, result.scale(), drop, divisor);
            }
        }
        Col col = Col.ofLongs(result, out, nulls);
        checkPrecision(col, expression);
        return col;
    }

    /**
     * The product of unscaled decimals {@code a} (scale {@code leftScale}) and {@code b} at
     * {@code resultScale}, {@code drop = leftScale + rightScale - resultScale} digits rounded off
     * half away from zero ({@code divisor} is {@code 10^drop}, 0 when that passes a long). An
     * {@link ArithmeticException} when the result passes a long.
     */
    static long product(long a, int leftScale, long b, int rightScale, int resultScale, int drop, long divisor) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        if (divisor != 0 && high == (low >> 63)) {
            return drop == 0 ? low : roundDiv(low, divisor);
        }
        BigDecimal exact = BigDecimal.valueOf(a, leftScale).multiply(BigDecimal.valueOf(b, rightScale));
        return exact.setScale(resultScale, RoundingMode.HALF_UP).unscaledValue().longValueExact();
    }

    /** {@code 10^drop} for a product's dropped digits, 0 when negative or past a long. */
    static long dropDivisor(int drop) {
        return drop >= 0 && drop <= MAX_POW10 ? TypeRules.pow10(drop) : 0;
    }

    private static final int MAX_POW10 = 18;

    /** Every non-NULL value of a decimal column fits its declared precision. */
    static void checkPrecision(Col col, Supplier<String> expression) {
        if (col.type.kind() != Kind.DECIMAL) {
            return;
        }
        if (col.isWide()) {
            boolean[] nulls = col.nulls;
            for (int i = 0; i < col.length; i++) {
                if ((nulls == null || !nulls[i]) && !Int128.fitsPrecision(col.highs[i], col.lows[i], col.type.precision())) {
                    throw overflow(expression, col.type);
                }
            }
            return;
        }
        if (col.type.isWideDecimal()) {
            return; // every long fits 19 or more digits
        }
        long limit = TypeRules.pow10(col.type.precision());
        long[] v = col.longs;
        boolean[] nulls = col.nulls;
        for (int i = 0; i < col.length; i++) {
            if ((v[i] >= limit || v[i] <= -limit) && (nulls == null || !nulls[i])) {
                throw overflow(expression, col.type);
            }
        }
    }

    static NumericOverflowException overflow(Supplier<String> expression, DataType result) {
        return new NumericOverflowException("numeric overflow: " + expression.get() + " does not fit " + result);
    }

    public static Col compare(BinaryOp op, Col l, Col r) {
        int n = l.length;
        if (l.type.kind() == Kind.NULL || r.type.kind() == Kind.NULL) {
            return Col.allNull(DataType.BOOL, n);
        }
        boolean[] nulls = mergeNulls(l.nulls, r.nulls);
        boolean[] out = new boolean[n];
        Kind lk = l.type.kind();
        Kind rk = r.type.kind();
        if (lk == Kind.FLOAT64 || rk == Kind.FLOAT64) {
            double[] a = toDoubles(l);
            double[] b = toDoubles(r);
            for (int i = 0; i < n; i++) {
                out[i] = test(op, Double.compare(a[i], b[i]));
            }
        } else if (l.type.isLongBacked() && r.type.isLongBacked()) {
            int scale = Math.max(lk == Kind.DECIMAL ? l.type.scale() : 0, rk == Kind.DECIMAL ? r.type.scale() : 0);
            long[] a;
            long[] b;
            try {
                a = toScaledLongs(l, scale);
                b = toScaledLongs(r, scale);
            } catch (ArithmeticException e) {
                compareAsBigDecimals(op, l, r, nulls, out); // a value too wide for a long at the common scale
                return Col.ofBools(out, nulls);
            }
            switch (op) {
                case EQ -> { for (int i = 0; i < n; i++) out[i] = a[i] == b[i]; }
                case NOT_EQ -> { for (int i = 0; i < n; i++) out[i] = a[i] != b[i]; }
                case LT -> { for (int i = 0; i < n; i++) out[i] = a[i] < b[i]; }
                case LT_EQ -> { for (int i = 0; i < n; i++) out[i] = a[i] <= b[i]; }
                case GT -> { for (int i = 0; i < n; i++) out[i] = a[i] > b[i]; }
                case GT_EQ -> { for (int i = 0; i < n; i++) out[i] = a[i] >= b[i]; }
                default -> throw new IllegalArgumentException(op + " is not a comparison");
            }
        } else if (lk == Kind.UTF8 && rk == Kind.UTF8) {
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    out[i] = test(op, l.strings[i].compareTo(r.strings[i]));
                }
            }
        } else if (lk == Kind.BOOL && rk == Kind.BOOL) {
            for (int i = 0; i < n; i++) {
                out[i] = test(op, Boolean.compare(l.bools[i], r.bools[i]));
            }
        } else {
            throw new SluiceException("cannot compare " + l.type + " with " + r.type);
        }
        return Col.ofBools(out, nulls);
    }

    /** Values too wide for a long at the common scale: 128-bit comparison at one scale, else BigDecimal. */
    private static void compareAsBigDecimals(BinaryOp op, Col l, Col r, boolean[] nulls, boolean[] out) {
        int ls = l.type.kind() == Kind.DECIMAL ? l.type.scale() : 0;
        int rs = r.type.kind() == Kind.DECIMAL ? r.type.scale() : 0;
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                int cmp = ls == rs ? Int128.compare(l.high(i), l.low(i), r.high(i), r.low(i))
                        : Int128.toBigDecimal(l.high(i), l.low(i), ls).compareTo(Int128.toBigDecimal(r.high(i), r.low(i), rs));
                out[i] = test(op, cmp);
            }
        }
    }

    static boolean test(BinaryOp op, int cmp) {
        return switch (op) {
            case EQ -> cmp == 0;
            case NOT_EQ -> cmp != 0;
            case LT -> cmp < 0;
            case LT_EQ -> cmp <= 0;
            case GT -> cmp > 0;
            case GT_EQ -> cmp >= 0;
            default -> throw new IllegalArgumentException(op + " is not a comparison");
        };
    }

    /** SQL three-valued AND / OR. */
    public static Col logical(BinaryOp op, Col l, Col r) {
        int n = l.length;
        boolean[] out = new boolean[n];
        boolean[] nulls = null;
        boolean and = op == BinaryOp.AND;
        if (l.nulls == null && r.nulls == null && l.bools != null && r.bools != null) {
            // no NULL on either side: two-valued logic, one branch-free loop
            boolean[] a = l.bools;
            boolean[] b = r.bools;
            if (and) {
                for (int i = 0; i < n; i++) out[i] = a[i] & b[i];
            } else {
                for (int i = 0; i < n; i++) out[i] = a[i] | b[i];
            }
            return Col.ofBools(out, null);
        }
        for (int i = 0; i < n; i++) {
            boolean ln = l.isNull(i);
            boolean rn = r.isNull(i);
            boolean lv = !ln && l.bools[i];
            boolean rv = !rn && r.bools[i];
            if (and) {
                if ((!ln && !lv) || (!rn && !rv)) {
                    out[i] = false;
                } else if (ln || rn) {
                    if (nulls == null) nulls = new boolean[n];
                    nulls[i] = true;
                } else {
                    out[i] = true;
                }
            } else {
                if (lv || rv) {
                    out[i] = true;
                } else if (ln || rn) {
                    if (nulls == null) nulls = new boolean[n];
                    nulls[i] = true;
                } else {
                    out[i] = false;
                }
            }
        }
        return Col.ofBools(out, nulls);
    }

    public static Col not(Col c) {
        boolean[] out = new boolean[c.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = !c.bools[i];
        }
        return Col.ofBools(out, c.nulls);
    }

    public static Col isNull(Col c, boolean negated) {
        boolean[] out = new boolean[c.length];
        if (c.nulls != null) {
            for (int i = 0; i < out.length; i++) {
                out[i] = c.nulls[i] != negated;
            }
        } else if (negated) {
            java.util.Arrays.fill(out, true);
        }
        return Col.ofBools(out, null);
    }

    /** {@code -c}; negating the smallest int64 is an overflow error naming {@code expression}. */
    public static Col negate(Col c, Supplier<String> expression) {
        if (c.type.kind() == Kind.FLOAT64) {
            double[] out = new double[c.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = -c.doubles[i];
            }
            return Col.ofDoubles(out, c.nulls);
        }
        boolean[] nulls = c.nulls;
        if (c.isWide()) {
            long[] hi = new long[c.length];
            long[] lo = new long[c.length];
            for (int i = 0; i < lo.length; i++) {
                lo[i] = -c.lows[i];
                hi[i] = ~c.highs[i] + (c.lows[i] == 0 ? 1 : 0);
            }
            return Col.ofInt128(c.type, hi, lo, nulls);
        }
        long[] out = new long[c.length];
        for (int i = 0; i < out.length; i++) {
            if (c.longs[i] == Long.MIN_VALUE && c.type.isWideDecimal() && (nulls == null || !nulls[i])) {
                long[] hi = new long[c.length];
                long[] lo = new long[c.length];
                for (int j = 0; j < lo.length; j++) {
                    lo[j] = -c.longs[j];
                    hi[j] = ~(c.longs[j] >> 63) + (c.longs[j] == 0 ? 1 : 0);
                }
                return Col.ofInt128(c.type, hi, lo, nulls);
            }
            if (c.longs[i] == Long.MIN_VALUE && (nulls == null || !nulls[i])) {
                throw overflow(expression, c.type);
            }
            out[i] = -c.longs[i];
        }
        return Col.ofLongs(c.type, out, nulls);
    }

    /** Converts a column to another type; values that do not convert are a user error naming the value. */
    public static Col cast(Col c, DataType target) {
        DataType source = c.type;
        if (source.equals(target)) {
            return c;
        }
        int n = c.length;
        if (source.kind() == Kind.NULL) {
            return Col.allNull(target, n);
        }
        Kind tk = target.kind();
        if (tk == Kind.FLOAT64) {
            if (source.kind() == Kind.UTF8) {
                double[] out = new double[n];
                for (int i = 0; i < n; i++) {
                    if (!c.isNull(i)) {
                        try {
                            out[i] = Double.parseDouble(c.strings[i].trim());
                        } catch (NumberFormatException e) {
                            throw TextCasts.badCast(c.strings[i], target);
                        }
                    }
                }
                return Col.ofDoubles(out, c.nulls);
            }
            return Col.ofDoubles(toDoubles(c), c.nulls);
        }
        if (tk == Kind.INT32 || tk == Kind.INT64) {
            long[] out = new long[n];
            switch (source.kind()) {
                case FLOAT64 -> { for (int i = 0; i < n; i++) out[i] = Math.round(c.doubles[i]); }
                case INT32, INT64, DATE32 -> System.arraycopy(c.longs, 0, out, 0, n);
                case DECIMAL -> {
                    try {
                        out = toScaledLongs(c, 0);
                    } catch (ArithmeticException e) {
                        throw new SluiceException("numeric overflow: a " + source + " value does not fit " + target);
                    }
                }
                case BOOL -> { for (int i = 0; i < n; i++) out[i] = c.bools[i] ? 1 : 0; }
                case UTF8 -> {
                    for (int i = 0; i < n; i++) {
                        if (!c.isNull(i)) {
                            try {
                                out[i] = Long.parseLong(c.strings[i].trim());
                            } catch (NumberFormatException e) {
                                throw TextCasts.badCast(c.strings[i], target);
                            }
                        }
                    }
                }
                default -> throw unsupported(source, target);
            }
            if (tk == Kind.INT32) {
                for (int i = 0; i < n; i++) {
                    if (!c.isNull(i) && (out[i] < Integer.MIN_VALUE || out[i] > Integer.MAX_VALUE)) {
                        throw new SluiceException("value " + out[i] + " is out of range for int32");
                    }
                }
            }
            return Col.ofLongs(target, out, c.nulls);
        }
        if (tk == Kind.DECIMAL && target.isWideDecimal()) {
            return Int128Kernels.castToDecimal(c, target);
        }
        if (tk == Kind.DECIMAL) {
            long[] out = new long[n];
            switch (source.kind()) {
                case INT32, INT64, DECIMAL -> {
                    try {
                        out = toScaledLongs(c, target.scale());
                    } catch (ArithmeticException e) {
                        throw new SluiceException("numeric overflow: a " + source + " value does not fit " + target);
                    }
                }
                case FLOAT64 -> {
                    for (int i = 0; i < n; i++) {
                        if (!c.isNull(i)) {
                            out[i] = BigDecimal.valueOf(c.doubles[i]).setScale(target.scale(), RoundingMode.HALF_UP)
                                    .unscaledValue().longValueExact();
                        }
                    }
                }
                case UTF8 -> {
                    for (int i = 0; i < n; i++) {
                        if (!c.isNull(i)) {
                            try {
                                out[i] = new BigDecimal(c.strings[i].trim()).setScale(target.scale(), RoundingMode.HALF_UP)
                                        .unscaledValue().longValueExact();
                            } catch (NumberFormatException | ArithmeticException e) {
                                throw TextCasts.badCast(c.strings[i], target);
                            }
                        }
                    }
                }
                default -> throw unsupported(source, target);
            }
            long limit = TypeRules.pow10(target.precision());
            for (int i = 0; i < n; i++) {
                if (!c.isNull(i) && (out[i] >= limit || out[i] <= -limit)) {
                    throw new SluiceException("value " + BigDecimal.valueOf(out[i], target.scale()) + " does not fit " + target);
                }
            }
            return Col.ofLongs(target, out, c.nulls);
        }
        if (tk == Kind.UTF8) {
            String[] out = new String[n];
            for (int i = 0; i < n; i++) {
                if (!c.isNull(i)) {
                    out[i] = ValueFormat.format(c, i);
                }
            }
            return Col.ofStrings(out, c.nulls);
        }
        if (tk == Kind.DATE32 || tk == Kind.TIMESTAMP) {
            return castToTemporal(c, target);
        }
        if (tk == Kind.BOOL && source.kind() == Kind.UTF8) {
            boolean[] out = new boolean[n];
            for (int i = 0; i < n; i++) {
                if (!c.isNull(i)) {
                    out[i] = TextCasts.toBool(c.strings[i]);
                }
            }
            return Col.ofBools(out, c.nulls);
        }
        throw unsupported(source, target);
    }

    /** Text, dates and timestamps to a date or timestamp: a timestamp's date is its day, a date's timestamp its midnight. */
    private static Col castToTemporal(Col c, DataType target) {
        int n = c.length;
        boolean toDate = target.kind() == Kind.DATE32;
        long[] out = new long[n];
        boolean[] nulls = c.nulls;
        switch (c.type.kind()) {
            case UTF8 -> {
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = toDate ? TextCasts.toDate(c.strings[i]) : TextCasts.toTimestamp(c.strings[i]);
                    }
                }
            }
            case DATE32 -> {
                long[] in = c.longs;
                try {
                    for (int i = 0; i < n; i++) {
                        out[i] = nulls != null && nulls[i] ? 0 : TemporalValues.dateToMicros(in[i]);
                    }
                } catch (ArithmeticException e) {
                    throw new SluiceException("a DATE is out of the TIMESTAMP range");
                }
            }
            case TIMESTAMP -> {
                long[] in = c.longs;
                for (int i = 0; i < n; i++) {
                    out[i] = TemporalValues.microsToDate(in[i]);
                }
            }
            default -> throw unsupported(c.type, target);
        }
        return Col.ofLongs(target, out, nulls);
    }

    private static SluiceException unsupported(DataType source, DataType target) {
        return new SluiceException("cannot cast " + source.sqlName() + " to " + target.sqlName());
    }
}
