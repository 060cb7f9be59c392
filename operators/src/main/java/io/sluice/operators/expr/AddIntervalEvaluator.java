package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.AddInterval;
import java.util.List;

/** The values of an {@link AddInterval}: each date or timestamp plus the constant interval. */
record AddIntervalEvaluator(AddInterval source) implements ChildValuesFunction {
    AddIntervalEvaluator {
        requireNonNull(source, "source is null");
    }

    @Override
    public Col apply(List<Col> children, DataType out) {
        Col c = children.get(0);
        if (c.type.kind() == Kind.NULL) {
            return Col.allNull(out, c.length);
        }
        long[] values = c.longs;
        boolean[] nulls = c.nulls;
        long[] result = new long[c.length];
        int months = source.months();
        int days = source.days();
        long micros = source.micros();
        try {
            if (out.kind() == Kind.DATE32) {
                for (int i = 0; i < result.length; i++) {
                    if (nulls == null || !nulls[i]) {
                        result[i] = Math.addExact(TemporalValues.addMonthsToDay(values[i], months), days);
                    }
                }
            } else {
                boolean fromDate = c.type.kind() == Kind.DATE32;
                for (int i = 0; i < result.length; i++) {
                    if (nulls == null || !nulls[i]) {
                        long ts = fromDate ? TemporalValues.dateToMicros(values[i]) : values[i];
                        result[i] = TemporalValues.addInterval(ts, months, days, micros);
                    }
                }
            }
        } catch (ArithmeticException | java.time.DateTimeException e) {
            throw new SluiceException("date out of range: " + source);
        }
        return Col.ofLongs(out, result, nulls);
    }
}
