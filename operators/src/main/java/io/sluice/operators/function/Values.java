package io.sluice.operators.function;

import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import java.util.List;

/** Arguments read as the form a kernel computes on, converted once per batch as CAST would. */
final class Values {
    private Values() {
    }

    /** The column as text (numbers, dates, booleans formatted). */
    static Col text(Col c) {
        return c.type.kind() == Kind.UTF8 ? c : cast(c, DataType.UTF8);
    }

    /** The column as whole numbers (INT and BIGINT are held as longs already). */
    static Col longs(Col c) {
        return c.type.kind() == Kind.INT64 || c.type.kind() == Kind.INT32 ? c : cast(c, DataType.INT64);
    }

    static Col doubles(Col c) {
        return c.type.kind() == Kind.FLOAT64 ? c : cast(c, DataType.FLOAT64);
    }

    /** Days since 1970-01-01: a date, a timestamp's day, text parsed as a date. */
    static Col days(Col c) {
        return c.type.kind() == Kind.DATE32 ? c : cast(c, DataType.DATE32);
    }

    /** Microseconds since 1970-01-01 00:00: a timestamp, a date's midnight, text parsed as a timestamp. */
    static Col micros(Col c) {
        return c.type.kind() == Kind.TIMESTAMP ? c : cast(c, DataType.TIMESTAMP);
    }

    /** As CAST; a NULL literal's column (type NULL) is all NULL of {@code target}. */
    static Col cast(Col c, DataType target) {
        return c.type.kind() == Kind.NULL ? Col.allNull(target, c.length) : Kernels.cast(c, target);
    }

    /** Whether any argument is NULL at {@code row}. */
    static boolean anyNull(List<Col> args, int row) {
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).isNull(row)) {
                return true;
            }
        }
        return false;
    }

    /** Whether argument {@code i} exists and is NULL at {@code row}. */
    static boolean nullAt(List<Col> args, int i, int row) {
        return i < args.size() && args.get(i).isNull(row);
    }
}
