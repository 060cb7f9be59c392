package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues.TruncUnit;
import java.util.List;
import java.util.Locale;

/**
 * {@code date_trunc('unit', d)}: the start of the year, quarter, month, ISO week (Monday), day, hour,
 * minute, second, millisecond or microsecond containing {@code d}. A DATE truncated to a day or
 * coarser stays a DATE (DuckDB gives a TIMESTAMP at midnight, which compares equal); a TIMESTAMP, or
 * a DATE truncated finer, gives a TIMESTAMP. NULL gives NULL.
 */
public record DateTrunc(TruncUnit unit, Expr input) implements Expr {
    public DateTrunc {
        requireNonNull(unit, "unit is null");
        requireNonNull(input, "input is null");
    }

    /** The unit named {@code name} (case-insensitive, plural accepted), or an error listing them. */
    public static TruncUnit unit(String name) {
        String n = name.strip().toUpperCase(Locale.ROOT);
        if (n.endsWith("S")) {
            n = n.substring(0, n.length() - 1);
        }
        try {
            return TruncUnit.valueOf(n);
        } catch (IllegalArgumentException e) {
            throw new SluiceException("date_trunc('" + name + "', ...): the part must be one of year, quarter, month,"
                    + " week, day, hour, minute, second, millisecond, microsecond");
        }
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (!t.isTemporal() && t.kind() != Kind.NULL) {
            throw new SluiceException("date_trunc needs a DATE or TIMESTAMP, not " + t.sqlName() + " (" + input + ")");
        }
        return t.kind() == Kind.TIMESTAMP || !unit.dateUnit() ? DataType.TIMESTAMP : DataType.DATE32;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new DateTrunc(unit, children.get(0));
    }

    @Override
    public String toString() {
        return "date_trunc('" + unit.name().toLowerCase(Locale.ROOT) + "', " + input + ")";
    }
}
