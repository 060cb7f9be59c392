package io.sluice.plan.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.SluiceException;
import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Schema;
import java.time.LocalDate;
import java.util.List;

/**
 * A date plus a constant interval of {@code months} and then {@code days} (either may be negative):
 * {@code date '1998-12-01' - interval '90' day}, {@code d + interval '1' year}. Adding months keeps the
 * day of the month, clamped to the month's last day ({@code 2024-01-31 + 1 month = 2024-02-29}), as
 * in DuckDB and Spark. The result is a DATE (DuckDB gives a TIMESTAMP at midnight, which compares
 * equal); NULL stays NULL.
 */
public record AddInterval(Expr input, int months, int days) implements Expr {
    public AddInterval {
        requireNonNull(input, "input is null");
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (t.kind() != DataType.Kind.DATE32 && t.kind() != DataType.Kind.NULL) {
            throw new SluiceException("an interval can only be added to a DATE, not to " + t + " (" + input + ")");
        }
        return DataType.DATE32;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new AddInterval(children.get(0), months, days);
    }

    @Override
    public Col evaluate(Batch batch) {
        Col c = input.evaluate(batch);
        if (c.type.kind() == DataType.Kind.NULL) {
            return Col.allNull(DataType.DATE32, c.length);
        }
        long[] out = new long[c.length];
        for (int i = 0; i < c.length; i++) {
            if (!c.isNull(i)) {
                out[i] = LocalDate.ofEpochDay(c.longs[i]).plusMonths(months).plusDays(days).toEpochDay();
            }
        }
        return Col.ofLongs(DataType.DATE32, out, c.nulls);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("(").append(input);
        if (months != 0 || days == 0) {
            s.append(months < 0 ? " - " : " + ").append("INTERVAL '").append(Math.abs((long) months)).append("' MONTH");
        }
        if (days != 0) {
            s.append(days < 0 ? " - " : " + ").append("INTERVAL '").append(Math.abs((long) days)).append("' DAY");
        }
        return s.append(')').toString();
    }
}
