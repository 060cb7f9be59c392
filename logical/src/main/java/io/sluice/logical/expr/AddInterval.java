package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues;
import java.util.List;

/**
 * A date or timestamp plus a constant interval of {@code months}, then {@code days}, then
 * {@code micros} (any may be negative): {@code date '1998-12-01' - interval '90' day},
 * {@code ts + interval '3' hour}. Adding months keeps the day of the month, clamped to the month's
 * last day ({@code 2024-01-31 + 1 month = 2024-02-29}), as in DuckDB and Spark. A date plus months
 * and days stays a DATE (DuckDB gives a TIMESTAMP at midnight, which compares equal); a date plus
 * hours, minutes or seconds becomes a TIMESTAMP; a timestamp stays one. NULL stays NULL.
 */
public record AddInterval(Expr input, int months, int days, long micros) implements Expr {
    public AddInterval {
        requireNonNull(input, "input is null");
    }

    public AddInterval(Expr input, int months, int days) {
        this(input, months, days, 0);
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (!t.isTemporal() && t.kind() != Kind.NULL) {
            throw new SluiceException("an interval can only be added to a DATE or TIMESTAMP, not to " + t.sqlName()
                    + " (" + input + ")");
        }
        return t.kind() == Kind.TIMESTAMP || micros != 0 ? DataType.TIMESTAMP : DataType.DATE32;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new AddInterval(children.get(0), months, days, micros);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("(").append(input);
        if (months != 0 || (days == 0 && micros == 0)) {
            s.append(months < 0 ? " - " : " + ").append("INTERVAL '").append(Math.abs((long) months)).append("' MONTH");
        }
        if (days != 0) {
            s.append(days < 0 ? " - " : " + ").append("INTERVAL '").append(Math.abs((long) days)).append("' DAY");
        }
        if (micros != 0) {
            long m = Math.abs(micros);
            String unit = m % TemporalValues.MICROS_PER_HOUR == 0 ? "HOUR" : m % TemporalValues.MICROS_PER_MINUTE == 0 ? "MINUTE"
                    : m % TemporalValues.MICROS_PER_SECOND == 0 ? "SECOND" : "MICROSECOND";
            long per = switch (unit) {
                case "HOUR" -> TemporalValues.MICROS_PER_HOUR;
                case "MINUTE" -> TemporalValues.MICROS_PER_MINUTE;
                case "SECOND" -> TemporalValues.MICROS_PER_SECOND;
                default -> 1;
            };
            s.append(micros < 0 ? " - " : " + ").append("INTERVAL '").append(m / per).append("' ").append(unit);
        }
        return s.append(')').toString();
    }
}
