package io.sluice.kernels;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;

/**
 * Integer arithmetic that tolerates overflow, for Spark's non-ANSI mode (the result wraps around, as
 * Java's and Spark's legacy arithmetic do) and for {@code try_add} and kin (the row is NULL). Run only
 * for a batch the strict kernels found to overflow, so the common path pays nothing for it.
 */
public final class TolerantArithmetic {
    private TolerantArithmetic() {
    }

    /**
     * {@code l op r} as a BIGINT (both long-backed integers), each row's overflow wrapped when
     * {@code wrap}, else that row NULL; a zero divisor is NULL.
     */
    public static Col bigint(BinaryOp op, Col l, Col r, boolean wrap) {
        int n = l.length;
        long[] a = l.longs;
        long[] b = r.longs;
        long[] out = new long[n];
        boolean[] nulls = Kernels.mergeNulls(l.nulls, r.nulls);
        boolean[] outNulls = nulls == null ? new boolean[n] : nulls.clone();
        for (int i = 0; i < n; i++) {
            if (outNulls[i]) {
                continue;
            }
            long x = a[i];
            long y = b[i];
            switch (op) {
                case ADD -> {
                    long v = x + y;
                    outNulls[i] = !wrap && ((x ^ v) & (y ^ v)) < 0;
                    out[i] = v;
                }
                case SUBTRACT -> {
                    long v = x - y;
                    outNulls[i] = !wrap && ((x ^ y) & (x ^ v)) < 0;
                    out[i] = v;
                }
                case MULTIPLY -> {
                    long hi = Math.multiplyHigh(x, y);
                    long v = x * y;
                    outNulls[i] = !wrap && (hi != 0 || v < 0) && (hi != -1 || v >= 0);
                    out[i] = v;
                }
                case DIV, DIVIDE, MODULO -> {
                    if (y == 0) {
                        outNulls[i] = true;
                    } else {
                        boolean overflows = x == Long.MIN_VALUE && y == -1 && op != BinaryOp.MODULO;
                        outNulls[i] = overflows && !wrap;
                        out[i] = op == BinaryOp.MODULO ? x % y : x / y;
                    }
                }
                default -> throw new IllegalArgumentException(op + " is not integer arithmetic");
            }
        }
        return Col.ofLongs(DataType.INT64, out, outNulls);
    }

    /** {@code -c} of a BIGINT column, the smallest value wrapped (to itself) when {@code wrap}, else NULL. */
    public static Col negate(Col c, boolean wrap) {
        long[] out = new long[c.length];
        boolean[] nulls = c.nulls == null ? new boolean[c.length] : c.nulls.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] = -c.longs[i];
            nulls[i] |= !wrap && c.longs[i] == Long.MIN_VALUE;
        }
        return Col.ofLongs(c.type, out, nulls);
    }

    /**
     * {@code c}, a BIGINT result of INT operands, as Spark's INT arithmetic gives it: a value past an
     * INT wrapped around when {@code wrap}, else NULL; {@code c} itself when every value fits.
     */
    public static Col narrowToInt(Col c, boolean wrap) {
        long[] v = c.longs;
        int n = c.length;
        int first = firstPastInt(c);
        if (first < 0) {
            return c;
        }
        long[] out = v.clone();
        boolean[] nulls = c.nulls == null ? new boolean[n] : c.nulls.clone();
        for (int i = first; i < n; i++) {
            if (!nulls[i] && (int) v[i] != v[i]) {
                out[i] = (int) v[i];
                nulls[i] = !wrap;
            }
        }
        return Col.ofLongs(c.type, out, nulls);
    }

    /** The first non-NULL row of a long-backed column whose value is past an INT, or -1. */
    public static int firstPastInt(Col c) {
        long[] v = c.longs;
        boolean[] nulls = c.nulls;
        for (int i = 0; i < c.length; i++) {
            if ((int) v[i] != v[i] && (nulls == null || !nulls[i])) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code type} is one these kernels compute (a long-backed integer). */
    public static boolean handles(DataType type) {
        return type.kind() == Kind.INT64 || type.kind() == Kind.INT32;
    }
}
