package io.sluice.plan.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.SluiceException;
import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Schema;
import java.time.LocalDate;
import java.util.List;

/** {@code extract(YEAR|MONTH|DAY from date)} as a BIGINT; NULL date gives NULL. */
public record Extract(Field field, Expr input) implements Expr {
    /** The date parts that can be extracted. */
    public enum Field { YEAR, MONTH, DAY }

    public Extract {
        requireNonNull(field, "field is null");
        requireNonNull(input, "input is null");
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (t.kind() != DataType.Kind.DATE32 && t.kind() != DataType.Kind.NULL) {
            throw new SluiceException("extract(" + field + " from ...) needs a DATE, not " + t + " (" + input + ")");
        }
        return DataType.INT64;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Extract(field, children.get(0));
    }

    @Override
    public Col evaluate(Batch batch) {
        Col c = input.evaluate(batch);
        if (c.type.kind() == DataType.Kind.NULL) {
            return Col.allNull(DataType.INT64, c.length);
        }
        long[] out = new long[c.length];
        for (int i = 0; i < c.length; i++) {
            if (!c.isNull(i)) {
                LocalDate d = LocalDate.ofEpochDay(c.longs[i]);
                out[i] = switch (field) {
                    case YEAR -> d.getYear();
                    case MONTH -> d.getMonthValue();
                    case DAY -> d.getDayOfMonth();
                };
            }
        }
        return Col.ofLongs(DataType.INT64, out, c.nulls);
    }

    @Override
    public String toString() {
        return "extract(" + field + " FROM " + input + ")";
    }
}
