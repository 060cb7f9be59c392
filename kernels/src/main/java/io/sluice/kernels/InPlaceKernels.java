package io.sluice.kernels;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import java.util.function.Supplier;

/**
 * Comparisons and arithmetic over numeric columns read where their Arrow vectors keep them
 * ({@link InPlaceValues}): a filter's {@code l_shipdate <= DATE '1998-09-02'} or a projection's
 * {@code l_extendedprice * (1 - l_discount)} loops over the vectors' buffers, the column is never
 * widened into a heap array first. The result is a new heap column (the kernel's output, not a
 * copy of its input).
 *
 * <p>Each kernel gives exactly what {@link ScalarKernels} and {@link Kernels} give on the heap
 * columns (same values, NULLs, types and overflow errors) for the shapes it takes, and returns
 * null for any other (a NULL or wide constant, a constant at a finer scale than the column,
 * division, a value passing a long on the way): the caller then evaluates the heap columns, whose
 * kernels decide between the 128-bit form and an error. Values under NULL rows are never computed
 * with (their slots may hold anything).
 */
public final class InPlaceKernels {
    private InPlaceKernels() {
    }

    /**
     * {@code column op scalar}, or {@code scalar op column} when {@code scalarOnLeft}, as
     * {@link ScalarKernels#compare} computes it; null for a shape not read in place here.
     */
    public static Col compare(BinaryOp op, InPlaceValues column, Col scalar, boolean scalarOnLeft) {
        int[] selection = new int[column.rows];
        int kept = SelectionKernels.compare(op, column, scalar, scalarOnLeft, selection,
                SelectionKernels.all(selection, column.rows));
        return kept < 0 ? null : SelectionKernels.toBools(selection, kept, column.rows, column.nullFlags());
    }

    /**
     * The constant {@code scalar} in the form {@code column}'s values are compared in: its double's
     * bits when the column holds doubles, else its unscaled long at the column's scale; null when
     * it is not one the in-place comparisons take (NULL, wide, finer scale than the column, or
     * past a long once rescaled). One element, computed once per batch.
     */
    static long[] comparand(InPlaceValues column, Col scalar) {
        if (!usable(scalar)) {
            return null;
        }
        if (column.doubles) {
            if (scalar.type.kind() != Kind.FLOAT64 && !scalar.type.isLongBacked()) {
                return null;
            }
            return new long[] {Double.doubleToRawLongBits(Kernels.toDoubles(scalar)[0])};
        }
        if (!scalar.type.isLongBacked() || ScalarKernels.scaleOf(scalar.type) > column.scale) {
            return null;
        }
        try {
            return new long[] {Kernels.toScaledLongs(scalar, column.scale)[0]};
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /**
     * {@code l op r} for two columns read in place, as {@link Kernels#compare} computes it: both
     * doubles, or both long-backed at one scale; null otherwise.
     */
    public static Col compare(BinaryOp op, InPlaceValues l, InPlaceValues r) {
        int[] selection = new int[l.rows];
        int kept = SelectionKernels.compare(op, l, r, selection, SelectionKernels.all(selection, l.rows));
        return kept < 0 ? null
                : SelectionKernels.toBools(selection, kept, l.rows, Kernels.mergeNulls(l.nullFlags(), r.nullFlags()));
    }

    /**
     * {@code column op scalar}, or {@code scalar op column} when {@code scalarOnLeft}, as
     * {@link ScalarKernels#arithmetic} computes it: addition and subtraction at the column's scale,
     * a product that keeps every digit, and double arithmetic; null for any other shape.
     */
    public static Col arithmetic(BinaryOp op, InPlaceValues column, Col scalar, boolean scalarOnLeft, DataType result,
            Supplier<String> expression) {
        if (!usable(scalar) || result.kind() == Kind.NULL) {
            return null;
        }
        if (result.kind() == Kind.FLOAT64) {
            if (!column.doubles || (scalar.type.kind() != Kind.FLOAT64 && !scalar.type.isLongBacked())) {
                return null;
            }
            double[] out = floatArithmetic(op, column, Kernels.toDoubles(scalar)[0], scalarOnLeft);
            return out == null ? null : Col.ofDoubles(out, column.nullFlags());
        }
        if (column.doubles || !scalar.type.isLongBacked()) {
            return null;
        }
        int scale = result.kind() == Kind.DECIMAL ? result.scale() : 0;
        long[] out;
        try {
            switch (op) {
                case MULTIPLY -> {
                    if (column.scale + ScalarKernels.scaleOf(scalar.type) != scale) {
                        return null; // the product rounds: the heap kernel
                    }
                    out = multiply(column, scalar.longs[0]); // the product of unscaled values is the result's
                }
                case ADD, SUBTRACT -> {
                    if (column.scale != scale) {
                        return null;
                    }
                    long b = Kernels.toScaledLongs(scalar, scale)[0];
                    out = op == BinaryOp.ADD ? add(column, b)
                            : scalarOnLeft ? subtractFrom(b, column) : add(column, Math.negateExact(b));
                }
                default -> {
                    return null;
                }
            }
        } catch (ArithmeticException e) {
            return null;
        }
        Col col = Col.ofLongs(result, out, column.nullFlags());
        Kernels.checkPrecision(col, expression);
        return col;
    }

    /**
     * {@code column * other}, or {@code other * column} (the same value), for a column read in place
     * and a heap column, as {@link Kernels#arithmetic} multiplies long-backed values (rounding a
     * decimal product to the result's scale); null when the result is a double, the heap column is
     * wide or a product passes a long.
     */
    public static Col multiply(InPlaceValues column, Col other, DataType result, Supplier<String> expression) {
        if (!multipliesToLongs(column, result) || other.isWide() || !other.type.isLongBacked() || other.length != column.rows) {
            return null;
        }
        int n = column.rows;
        int leftScale = column.scale;
        int rightScale = ScalarKernels.scaleOf(other.type);
        int resultScale = result.kind() == Kind.DECIMAL ? result.scale() : 0;
        int drop = leftScale + rightScale - resultScale;
        long divisor = Kernels.dropDivisor(drop);
        boolean[] nulls = Kernels.mergeNulls(column.nullFlags(), other.nulls);
        long data = column.data;
        int shift = column.shift;
        long[] b = other.longs;
        long[] out = new long[n];
        try {
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    out[i] = Kernels.product(InPlaceValues.longAt(data, shift, i), leftScale, b[i], rightScale, resultScale,
                            drop, divisor);
                }
            }
        } catch (ArithmeticException e) {
            return null;
        }
        Col col = Col.ofLongs(result, out, nulls);
        Kernels.checkPrecision(col, expression);
        return col;
    }

    /**
     * {@code l * r} for two columns both read in place (q6's {@code l_extendedprice * l_discount}),
     * as {@link #multiply(InPlaceValues, Col, DataType, Supplier)} computes it, without either
     * column unpacked into a heap array first; null for the shapes that one declines.
     */
    public static Col multiply(InPlaceValues l, InPlaceValues r, DataType result, Supplier<String> expression) {
        if (!multipliesToLongs(l, result) || r.doubles || l.rows != r.rows) {
            return null;
        }
        int n = l.rows;
        int resultScale = result.kind() == Kind.DECIMAL ? result.scale() : 0;
        int drop = l.scale + r.scale - resultScale;
        long divisor = Kernels.dropDivisor(drop);
        boolean[] nulls = Kernels.mergeNulls(l.nullFlags(), r.nullFlags());
        long[] out = new long[n];
        try {
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    out[i] = Kernels.product(InPlaceValues.longAt(l.data, l.shift, i), l.scale,
                            InPlaceValues.longAt(r.data, r.shift, i), r.scale, resultScale, drop, divisor);
                }
            }
        } catch (ArithmeticException e) {
            return null;
        }
        Col col = Col.ofLongs(result, out, nulls);
        Kernels.checkPrecision(col, expression);
        return col;
    }

    /** Whether a product with {@code column} on one side may be computed as longs into {@code result}. */
    private static boolean multipliesToLongs(InPlaceValues column, DataType result) {
        return result.kind() != Kind.FLOAT64 && result.kind() != Kind.NULL && !column.doubles;
    }

    /**
     * {@code column op other} (or {@code other op column} when {@code columnOnLeft} is false) for a
     * column read in place and a heap column of the same rows, as {@link Kernels#arithmetic}
     * computes it: a product ({@link #multiply}), or a sum or difference of long-backed values at
     * the in-place column's scale; null for any other shape (doubles, division, another scale, a
     * wide heap column, a value passing a long on the way).
     */
    public static Col withColumn(BinaryOp op, InPlaceValues column, Col other, boolean columnOnLeft, DataType result,
            Supplier<String> expression) {
        if (op == BinaryOp.MULTIPLY) {
            return multiply(column, other, result, expression);
        }
        if ((op != BinaryOp.ADD && op != BinaryOp.SUBTRACT) || result.kind() == Kind.FLOAT64
                || result.kind() == Kind.NULL || column.doubles || other.isWide() || !other.type.isLongBacked()
                || other.length != column.rows) {
            return null;
        }
        int scale = result.kind() == Kind.DECIMAL ? result.scale() : 0;
        if (column.scale != scale) {
            return null;
        }
        int n = column.rows;
        long data = column.data;
        int shift = column.shift;
        long[] out = new long[n];
        try {
            long[] b = Kernels.toScaledLongs(other, scale);
            boolean[] nulls = Kernels.mergeNulls(column.nullFlags(), other.nulls);
            // one loop per form, as the kernels against constants: no per-row test left for the JIT to hoist
            if (op == BinaryOp.ADD) {
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = Math.addExact(InPlaceValues.longAt(data, shift, i), b[i]);
                    }
                }
            } else if (columnOnLeft) {
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = Math.subtractExact(InPlaceValues.longAt(data, shift, i), b[i]);
                    }
                }
            } else {
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = Math.subtractExact(b[i], InPlaceValues.longAt(data, shift, i));
                    }
                }
            }
            Col col = Col.ofLongs(result, out, nulls);
            Kernels.checkPrecision(col, expression);
            return col;
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /** A constant the kernels here take: one non-NULL value in the compact form. */
    private static boolean usable(Col scalar) {
        return scalar.type.kind() != Kind.NULL && !scalar.isNull(0) && !scalar.isWide();
    }

    private static long[] add(InPlaceValues column, long b) {
        int n = column.rows;
        long a = column.data;
        int s = column.shift;
        long validity = column.validity;
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            if (!InPlaceValues.isNull(validity, i)) {
                out[i] = Math.addExact(InPlaceValues.longAt(a, s, i), b);
            }
        }
        return out;
    }

    private static long[] subtractFrom(long b, InPlaceValues column) {
        int n = column.rows;
        long a = column.data;
        int s = column.shift;
        long validity = column.validity;
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            if (!InPlaceValues.isNull(validity, i)) {
                out[i] = Math.subtractExact(b, InPlaceValues.longAt(a, s, i));
            }
        }
        return out;
    }

    private static long[] multiply(InPlaceValues column, long b) {
        int n = column.rows;
        long a = column.data;
        int s = column.shift;
        long validity = column.validity;
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            if (!InPlaceValues.isNull(validity, i)) {
                out[i] = Math.multiplyExact(InPlaceValues.longAt(a, s, i), b);
            }
        }
        return out;
    }

    /** Double arithmetic against a constant; null for a division the heap kernel gives NULLs for. */
    private static double[] floatArithmetic(BinaryOp op, InPlaceValues column, double b, boolean scalarOnLeft) {
        int n = column.rows;
        long a = column.data;
        double[] out = new double[n];
        switch (op) {
            case ADD -> { for (int i = 0; i < n; i++) out[i] = InPlaceValues.doubleAt(a, i) + b; }
            case MULTIPLY -> { for (int i = 0; i < n; i++) out[i] = InPlaceValues.doubleAt(a, i) * b; }
            case SUBTRACT -> {
                if (scalarOnLeft) {
                    for (int i = 0; i < n; i++) out[i] = b - InPlaceValues.doubleAt(a, i);
                } else {
                    for (int i = 0; i < n; i++) out[i] = InPlaceValues.doubleAt(a, i) - b;
                }
            }
            case DIVIDE -> {
                if (scalarOnLeft || b == 0) {
                    return null;
                }
                for (int i = 0; i < n; i++) out[i] = InPlaceValues.doubleAt(a, i) / b;
            }
            default -> {
                return null;
            }
        }
        return out;
    }
}
