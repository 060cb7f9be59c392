package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues.TruncUnit;
import io.sluice.common.types.TemporalValues;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.DateTrunc;
import java.util.List;

/** The values of a {@link DateTrunc}: each date or timestamp truncated to the unit. */
record DateTruncEvaluator(DateTrunc source) implements ChildValuesFunction {
    DateTruncEvaluator {
        requireNonNull(source, "source is null");
    }

    @Override
    public Col apply(List<Col> children, DataType out) {
        Col c = children.get(0);
        if (c.type.kind() == Kind.NULL) {
            return Col.allNull(out, c.length);
        }
        long[] in = c.longs;
        boolean[] nulls = c.nulls;
        long[] result = new long[c.length];
        boolean fromDate = c.type.kind() == Kind.DATE32;
        boolean toDate = out.kind() == Kind.DATE32;
        TruncUnit unit = source.unit();
        for (int i = 0; i < result.length; i++) {
            if (nulls == null || !nulls[i]) {
                if (toDate) {
                    result[i] = TemporalValues.truncDay(in[i], unit);
                } else {
                    result[i] = TemporalValues.truncMicros(fromDate ? TemporalValues.dateToMicros(in[i]) : in[i], unit);
                }
            }
        }
        return Col.ofLongs(out, result, nulls);
    }
}
