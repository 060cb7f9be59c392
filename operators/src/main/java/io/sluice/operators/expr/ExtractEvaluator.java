package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Extract.Field;
import io.sluice.logical.expr.Extract;
import java.util.List;

/** The values of an {@link Extract}: a part of each date or timestamp, with its meanings. */
record ExtractEvaluator(Extract source) implements ChildValuesFunction {
    ExtractEvaluator {
        requireNonNull(source, "source is null");
    }

    @Override
    public Col apply(List<Col> children, DataType type) {
        Field field = source.field();
        Col c = children.get(0);
        if (c.type.kind() == Kind.NULL) {
            return Col.allNull(field == Field.EPOCH ? DataType.FLOAT64 : DataType.INT64, c.length);
        }
        boolean timestamp = c.type.kind() == Kind.TIMESTAMP;
        long[] in = c.longs;
        boolean[] nulls = c.nulls;
        if (field == Field.EPOCH) {
            double[] seconds = new double[c.length];
            for (int i = 0; i < seconds.length; i++) {
                if (nulls == null || !nulls[i]) {
                    // whole seconds and the fraction apart, so the division rounds as DuckDB's does
                    long micros = timestamp ? in[i] : in[i] * TemporalValues.MICROS_PER_DAY;
                    long whole = Math.floorDiv(micros, TemporalValues.MICROS_PER_SECOND);
                    seconds[i] = whole + Math.floorMod(micros, TemporalValues.MICROS_PER_SECOND) / 1e6;
                }
            }
            return Col.ofDoubles(seconds, nulls);
        }
        long[] out = new long[c.length];
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                long day = timestamp ? TemporalValues.microsToDate(in[i]) : in[i];
                long ofDay = timestamp ? in[i] - day * TemporalValues.MICROS_PER_DAY : 0;
                out[i] = part(day, ofDay);
            }
        }
        return Col.ofLongs(DataType.INT64, out, nulls);
    }

    private long part(long day, long ofDay) {
        return switch (source.field()) {
            case YEAR -> TemporalValues.yearOf(TemporalValues.civil(day));
            case QUARTER -> (TemporalValues.monthOf(TemporalValues.civil(day)) - 1) / 3 + 1;
            case MONTH -> TemporalValues.monthOf(TemporalValues.civil(day));
            case DAY -> TemporalValues.dayOf(TemporalValues.civil(day));
            case WEEK -> {
                long thursday = day - Math.floorMod(day + 3, 7) + 3; // the ISO week's Thursday fixes its year
                yield (thursday - TemporalValues.epochDay(TemporalValues.yearOf(TemporalValues.civil(thursday)), 1, 1)) / 7 + 1;
            }
            case DOW -> Math.floorMod(day + 4, 7); // 1970-01-01 was a Thursday (4)
            case ISODOW -> Math.floorMod(day + 3, 7) + 1;
            case DOY -> day - TemporalValues.epochDay(TemporalValues.yearOf(TemporalValues.civil(day)), 1, 1) + 1;
            case HOUR -> ofDay / TemporalValues.MICROS_PER_HOUR;
            case MINUTE -> ofDay % TemporalValues.MICROS_PER_HOUR / TemporalValues.MICROS_PER_MINUTE;
            case SECOND -> ofDay % TemporalValues.MICROS_PER_MINUTE / TemporalValues.MICROS_PER_SECOND;
            case MILLISECOND -> ofDay % TemporalValues.MICROS_PER_MINUTE / 1000;
            case MICROSECOND -> ofDay % TemporalValues.MICROS_PER_MINUTE;
            case EPOCH -> throw new IllegalStateException("epoch is computed as a double");
        };
    }
}
