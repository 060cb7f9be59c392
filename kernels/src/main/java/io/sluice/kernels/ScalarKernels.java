package io.sluice.kernels;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Kernels of a column against a constant ({@code col < 900}, {@code v * 2}, {@code x * 1.5 + 1}):
 * the constant is a one-row column converted once per batch to the common scale or to a double,
 * never expanded to a batch-long array; one type dispatch, then a primitive loop.
 *
 * <p>Each kernel gives exactly what {@link Kernels} gives for the constant expanded to every row
 * (same values, NULLs, result types and errors naming the expression): the common shapes take the
 * loops here, and any case they do not cover (a NULL constant, 128-bit decimals, a value passing a
 * long on the way, a product that rounds) is handed to {@link Kernels} with the constant expanded.
 */
public final class ScalarKernels {
    private ScalarKernels() {
    }

    /**
     * {@code column op scalar}, or {@code scalar op column} when {@code scalarOnLeft}, as
     * {@link Kernels#arithmetic} computes it; {@code scalar} is a one-row column.
     */
    public static Col arithmetic(BinaryOp op, Col column, Col scalar, boolean scalarOnLeft, DataType result,
            Supplier<String> expression) {
        int n = column.length;
        if (result.kind() == Kind.NULL || column.type.kind() == Kind.NULL || scalar.type.kind() == Kind.NULL) {
            return Col.allNull(result.kind() == Kind.NULL ? DataType.NULL : result, n);
        }
        // DIV (exact integer quotient, doubles truncated) has one kernel, Kernels.integerDivide
        if (op == BinaryOp.DIV || scalar.isNull(0) || column.isWide() || scalar.isWide()) {
            return general(op, column, scalar, scalarOnLeft, result, expression);
        }
        if (result.kind() == Kind.FLOAT64) {
            return floatArithmetic(op, Kernels.toDoubles(column), Kernels.toDoubles(scalar)[0], scalarOnLeft, column.nulls);
        }
        try {
            if (op == BinaryOp.MULTIPLY && result.kind() == Kind.DECIMAL) {
                int drop = scaleOf(column.type) + scaleOf(scalar.type) - result.scale();
                if (drop != 0) {
                    return general(op, column, scalar, scalarOnLeft, result, expression);
                }
                // the exact product of the unscaled values is the result's unscaled value
                return checked(Col.ofLongs(result, multiply(column.longs, scalar.longs[0], column.nulls), column.nulls),
                        expression);
            }
            int scale = result.kind() == Kind.DECIMAL ? result.scale() : 0;
            long[] a = Kernels.toScaledLongs(column, scale);
            long b = Kernels.toScaledLongs(scalar, scale)[0];
            boolean[] nulls = column.nulls;
            long[] out;
            switch (op) {
                case ADD -> out = add(a, b, nulls);
                case SUBTRACT -> out = scalarOnLeft ? subtractFrom(b, a, nulls) : add(a, Math.negateExact(b), nulls);
                case MULTIPLY -> out = multiply(a, b, nulls);
                case MODULO -> {
                    if (scalarOnLeft) {
                        return general(op, column, scalar, true, result, expression);
                    }
                    if (b == 0) {
                        return Col.ofLongs(result, new long[n], allTrue(n)); // x % 0 is NULL
                    }
                    out = new long[n];
                    for (int i = 0; i < n; i++) {
                        out[i] = a[i] % b;
                    }
                }
                default -> {
                    return general(op, column, scalar, scalarOnLeft, result, expression);
                }
            }
            return checked(Col.ofLongs(result, out, nulls), expression);
        } catch (ArithmeticException e) {
            // a value passed a long (or the result's precision) on the way: the general kernel
            // decides between the 128-bit form and an overflow error
            return general(op, column, scalar, scalarOnLeft, result, expression);
        }
    }

    private static Col checked(Col col, Supplier<String> expression) {
        Kernels.checkPrecision(col, expression);
        return col;
    }

    private static long[] add(long[] a, long b, boolean[] nulls) {
        long[] out = new long[a.length];
        if (nulls == null) {
            for (int i = 0; i < out.length; i++) {
                out[i] = Math.addExact(a[i], b);
            }
        } else {
            for (int i = 0; i < out.length; i++) {
                if (!nulls[i]) {
                    out[i] = Math.addExact(a[i], b);
                }
            }
        }
        return out;
    }

    private static long[] subtractFrom(long b, long[] a, boolean[] nulls) {
        long[] out = new long[a.length];
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Math.subtractExact(b, a[i]);
            }
        }
        return out;
    }

    private static long[] multiply(long[] a, long b, boolean[] nulls) {
        long[] out = new long[a.length];
        if (nulls == null) {
            for (int i = 0; i < out.length; i++) {
                out[i] = Math.multiplyExact(a[i], b);
            }
        } else {
            for (int i = 0; i < out.length; i++) {
                if (!nulls[i]) {
                    out[i] = Math.multiplyExact(a[i], b);
                }
            }
        }
        return out;
    }

    private static Col floatArithmetic(BinaryOp op, double[] a, double b, boolean scalarOnLeft, boolean[] nulls) {
        int n = a.length;
        double[] out = new double[n];
        switch (op) {
            case ADD -> { for (int i = 0; i < n; i++) out[i] = a[i] + b; }
            case MULTIPLY -> { for (int i = 0; i < n; i++) out[i] = a[i] * b; }
            case SUBTRACT -> {
                if (scalarOnLeft) {
                    for (int i = 0; i < n; i++) out[i] = b - a[i];
                } else {
                    for (int i = 0; i < n; i++) out[i] = a[i] - b;
                }
            }
            case DIVIDE, MODULO -> {
                boolean divide = op == BinaryOp.DIVIDE;
                if (!scalarOnLeft) {
                    if (b == 0) {
                        return Col.ofDoubles(out, allTrue(n)); // x / 0 is NULL
                    }
                    if (divide) {
                        for (int i = 0; i < n; i++) out[i] = a[i] / b;
                    } else {
                        for (int i = 0; i < n; i++) out[i] = a[i] % b;
                    }
                    return Col.ofDoubles(out, nulls);
                }
                boolean[] divNulls = null;
                for (int i = 0; i < n; i++) {
                    if (a[i] == 0) {
                        if (divNulls == null) {
                            divNulls = nulls == null ? new boolean[n] : nulls.clone();
                        }
                        divNulls[i] = true;
                    } else {
                        out[i] = divide ? b / a[i] : b % a[i];
                    }
                }
                return Col.ofDoubles(out, divNulls != null ? divNulls : nulls);
            }
            default -> throw new IllegalArgumentException(op + " is not arithmetic");
        }
        return Col.ofDoubles(out, nulls);
    }

    /**
     * {@code column op scalar}, or {@code scalar op column} when {@code scalarOnLeft}, as
     * {@link Kernels#compare} computes it; {@code scalar} is a one-row column.
     */
    public static Col compare(BinaryOp op, Col column, Col scalar, boolean scalarOnLeft) {
        int n = column.length;
        if (column.type.kind() == Kind.NULL || scalar.type.kind() == Kind.NULL) {
            return Col.allNull(DataType.BOOL, n);
        }
        if (scalar.isNull(0)) {
            return scalarOnLeft ? Kernels.compare(op, expand(scalar, n), column) : Kernels.compare(op, column, expand(scalar, n));
        }
        BinaryOp cmp = scalarOnLeft ? op.flip() : op; // column cmp scalar
        Kind ck = column.type.kind();
        Kind sk = scalar.type.kind();
        boolean[] nulls = column.nulls;
        if (ck == Kind.FLOAT64 || sk == Kind.FLOAT64) {
            return Col.ofBools(compareDoubles(cmp, Kernels.toDoubles(column), Kernels.toDoubles(scalar)[0]), nulls);
        }
        if (column.type.isLongBacked() && scalar.type.isLongBacked()) {
            int scale = Math.max(scaleOf(column.type), scaleOf(scalar.type));
            long[] a;
            long b;
            try {
                a = Kernels.toScaledLongs(column, scale);
                b = Kernels.toScaledLongs(scalar, scale)[0];
            } catch (ArithmeticException e) {
                return scalarOnLeft ? Kernels.compare(op, expand(scalar, n), column) : Kernels.compare(op, column, expand(scalar, n));
            }
            return Col.ofBools(compareLongs(cmp, a, b), nulls);
        }
        if (ck == Kind.UTF8 && sk == Kind.UTF8) {
            String s = scalar.strings[0];
            String[] a = column.strings;
            boolean[] out = new boolean[n];
            if (cmp == BinaryOp.EQ || cmp == BinaryOp.NOT_EQ) {
                boolean eq = cmp == BinaryOp.EQ;
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = s.equals(a[i]) == eq;
                    }
                }
            } else {
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = Kernels.test(cmp, a[i].compareTo(s));
                    }
                }
            }
            return Col.ofBools(out, nulls);
        }
        return scalarOnLeft ? Kernels.compare(op, expand(scalar, n), column) : Kernels.compare(op, column, expand(scalar, n));
    }

    /** {@code Double.compare(a[i], b) cmp 0} per row: the total order the general kernel uses (NaN, -0.0). */
    private static boolean[] compareDoubles(BinaryOp cmp, double[] a, double b) {
        int n = a.length;
        boolean[] out = new boolean[n];
        switch (cmp) {
            case EQ -> { for (int i = 0; i < n; i++) out[i] = Double.compare(a[i], b) == 0; }
            case NOT_EQ -> { for (int i = 0; i < n; i++) out[i] = Double.compare(a[i], b) != 0; }
            case LT -> { for (int i = 0; i < n; i++) out[i] = Double.compare(a[i], b) < 0; }
            case LT_EQ -> { for (int i = 0; i < n; i++) out[i] = Double.compare(a[i], b) <= 0; }
            case GT -> { for (int i = 0; i < n; i++) out[i] = Double.compare(a[i], b) > 0; }
            case GT_EQ -> { for (int i = 0; i < n; i++) out[i] = Double.compare(a[i], b) >= 0; }
            default -> throw new IllegalArgumentException(cmp + " is not a comparison");
        }
        return out;
    }

    private static boolean[] compareLongs(BinaryOp cmp, long[] a, long b) {
        int n = a.length;
        boolean[] out = new boolean[n];
        switch (cmp) {
            case EQ -> { for (int i = 0; i < n; i++) out[i] = a[i] == b; }
            case NOT_EQ -> { for (int i = 0; i < n; i++) out[i] = a[i] != b; }
            case LT -> { for (int i = 0; i < n; i++) out[i] = a[i] < b; }
            case LT_EQ -> { for (int i = 0; i < n; i++) out[i] = a[i] <= b; }
            case GT -> { for (int i = 0; i < n; i++) out[i] = a[i] > b; }
            case GT_EQ -> { for (int i = 0; i < n; i++) out[i] = a[i] >= b; }
            default -> throw new IllegalArgumentException(cmp + " is not a comparison");
        }
        return out;
    }

    private static Col general(BinaryOp op, Col column, Col scalar, boolean scalarOnLeft, DataType result,
            Supplier<String> expression) {
        Col expanded = expand(scalar, column.length);
        return scalarOnLeft ? Kernels.arithmetic(op, expanded, column, result, expression)
                : Kernels.arithmetic(op, column, expanded, result, expression);
    }

    /** A one-row column repeated {@code n} times. */
    public static Col expand(Col scalar, int n) {
        if (scalar.isNull(0)) {
            return Col.allNull(scalar.type, n);
        }
        if (scalar.isWide()) {
            long[] hi = new long[n];
            long[] lo = new long[n];
            Arrays.fill(hi, scalar.highs[0]);
            Arrays.fill(lo, scalar.lows[0]);
            return Col.ofInt128(scalar.type, hi, lo, null);
        }
        return switch (scalar.type.kind()) {
            case NULL -> Col.allNull(scalar.type, n);
            case BOOL -> {
                boolean[] out = new boolean[n];
                Arrays.fill(out, scalar.bools[0]);
                yield Col.ofBools(out, null);
            }
            case FLOAT64 -> {
                double[] out = new double[n];
                Arrays.fill(out, scalar.doubles[0]);
                yield Col.ofDoubles(out, null);
            }
            case UTF8 -> {
                String[] out = new String[n];
                Arrays.fill(out, scalar.strings[0]);
                yield Col.ofStrings(out, null);
            }
            default -> {
                long[] out = new long[n];
                Arrays.fill(out, scalar.longs[0]);
                yield Col.ofLongs(scalar.type, out, null);
            }
        };
    }

    private static boolean[] allTrue(int n) {
        boolean[] out = new boolean[n];
        Arrays.fill(out, true);
        return out;
    }

    /** A decimal type's scale, 0 for every other type. */
    static int scaleOf(DataType type) {
        return type.kind() == Kind.DECIMAL ? type.scale() : 0;
    }
}
