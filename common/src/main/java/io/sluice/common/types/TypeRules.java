package io.sluice.common.types;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;

/** Result types of operators; evaluation uses the same rules, so planned and computed types agree. */
public final class TypeRules {
    private TypeRules() {
    }

    public static DataType arithmetic(BinaryOp op, DataType left, DataType right) {
        if (left.kind() == Kind.NULL && right.kind() == Kind.NULL) {
            return DataType.NULL;
        }
        DataType l = left.kind() == Kind.NULL ? right : left;
        DataType r = right.kind() == Kind.NULL ? left : right;
        DataType dates = dateArithmetic(op, l, r);
        if (dates != null) {
            return dates;
        }
        if (!l.isNumeric() || !r.isNumeric()) {
            throw new SluiceException("cannot apply '" + op.symbol() + "' to " + left.sqlName() + " and " + right.sqlName());
        }
        if (op == BinaryOp.DIV) {
            return DataType.INT64;
        }
        if (op == BinaryOp.DIVIDE || l.kind() == Kind.FLOAT64 || r.kind() == Kind.FLOAT64) {
            return DataType.FLOAT64;
        }
        if (l.kind() == Kind.DECIMAL || r.kind() == Kind.DECIMAL) {
            DataType ld = asDecimal(l);
            DataType rd = asDecimal(r);
            if (op == BinaryOp.MULTIPLY) {
                return boundedDecimal(ld.precision() + rd.precision() + 1, ld.scale() + rd.scale());
            }
            int scale = Math.max(ld.scale(), rd.scale());
            int integer = Math.max(ld.precision() - ld.scale(), rd.precision() - rd.scale());
            return boundedDecimal(integer + scale + 1, scale);
        }
        return DataType.INT64;
    }

    /**
     * Days added to or taken from a date, as in DuckDB and Spark: {@code date ± integer} and
     * {@code integer + date} are DATEs (the integer counts days, and the values are epoch days, so the
     * plain long kernels compute them), {@code date - date} is the BIGINT number of days between.
     * Null when the operands are not dates.
     */
    private static DataType dateArithmetic(BinaryOp op, DataType l, DataType r) {
        boolean ld = l.kind() == Kind.DATE32;
        boolean rd = r.kind() == Kind.DATE32;
        if (ld && r.isIntegral() && (op == BinaryOp.ADD || op == BinaryOp.SUBTRACT)) {
            return DataType.DATE32;
        }
        if (rd && l.isIntegral() && op == BinaryOp.ADD) {
            return DataType.DATE32;
        }
        if (ld && rd && op == BinaryOp.SUBTRACT) {
            return DataType.INT64;
        }
        return null;
    }

    /**
     * Spark's rule ({@code allowPrecisionLoss}) for a decimal result wider than 38 digits: the
     * precision drops to 38 and the scale gives way to the integer digits, but keeps at least
     * min(scale, 6) digits. Values that still do not fit are an overflow error when computed.
     */
    public static DataType boundedDecimal(int precision, int scale) {
        int max = DataType.MAX_DECIMAL_PRECISION;
        if (precision <= max) {
            return DataType.decimal(precision, scale);
        }
        int integerDigits = precision - scale;
        int minScale = Math.min(scale, MIN_ADJUSTED_SCALE);
        return DataType.decimal(max, Math.max(max - integerDigits, minScale));
    }

    private static final int MIN_ADJUSTED_SCALE = 6;

    /**
     * The type two values widen to when they meet in one column (CASE results, UNION inputs), or
     * null when they cannot: equal types stay, NULL takes the other type, a date and a timestamp
     * widen to a timestamp, numbers widen (to float64 if either is, else to a decimal wide enough for
     * both, else to int64), as DuckDB's and Spark's common supertypes.
     */
    public static DataType commonType(DataType a, DataType b) {
        if (a.kind() == Kind.NULL || a.equals(b)) {
            return b;
        }
        if (b.kind() == Kind.NULL) {
            return a;
        }
        if (a.isTemporal() && b.isTemporal()) {
            return DataType.TIMESTAMP; // a date widens to its midnight
        }
        if (!a.isNumeric() || !b.isNumeric()) {
            return null;
        }
        if (a.kind() == Kind.FLOAT64 || b.kind() == Kind.FLOAT64) {
            return DataType.FLOAT64;
        }
        if (a.kind() == Kind.DECIMAL || b.kind() == Kind.DECIMAL) {
            DataType x = asDecimal(a);
            DataType y = asDecimal(b);
            int scale = Math.max(x.scale(), y.scale());
            int integer = Math.max(x.precision() - x.scale(), y.precision() - y.scale());
            return boundedDecimal(integer + scale, scale);
        }
        return DataType.INT64;
    }

    /** Integers widen to decimals of scale 0. */
    public static DataType asDecimal(DataType type) {
        return switch (type.kind()) {
            case DECIMAL -> type;
            case INT32 -> DataType.decimal(10, 0);
            case INT64 -> DataType.decimal(18, 0);
            default -> throw new SluiceException("cannot treat " + type + " as a decimal");
        };
    }

    /**
     * Fails when {@code type} is nested: STRUCT, ARRAY and MAP values are payload (carried, never
     * hashed or ordered), so they cannot be a {@code use} (a grouping key, a sort key, ...).
     */
    public static void requireKeyable(String use, Object what, DataType type) {
        if (type.isNested()) {
            throw new SluiceException(what + " of type " + type.sqlName() + " cannot be " + use
                    + ": nested values are not comparable");
        }
    }

    /** Whether values of the two types can be compared; the check names both types on failure. */
    public static void checkComparable(BinaryOp op, DataType left, DataType right) {
        if (left.isNested() || right.isNested()) {
            throw new SluiceException("cannot compare " + left.sqlName() + " with " + right.sqlName() + " using '"
                    + op.symbol() + "': nested values are not comparable");
        }
        if (left.kind() == Kind.NULL || right.kind() == Kind.NULL) {
            return;
        }
        boolean ok = (left.isNumeric() && right.isNumeric()) || left.kind() == right.kind();
        if (!ok) {
            throw new SluiceException("cannot compare " + left + " with " + right + " using '" + op.symbol() + "'");
        }
    }

    public static void checkBoolean(String what, DataType type) {
        if (type.kind() != Kind.BOOL && type.kind() != Kind.NULL) {
            throw new SluiceException(what + " must be boolean, not " + type);
        }
    }

    /** 10^n for n in [0, 18]; larger n is an {@link ArithmeticException} (the value would not fit a long). */
    public static long pow10(int n) {
        if (n >= POW10.length) {
            throw new ArithmeticException("10^" + n + " does not fit a long");
        }
        return POW10[n];
    }

    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }
}
