package io.sluice.plan.physical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.types.DataType;

/** An input column by position. */
public record BoundColumn(int index, DataType type, String name) implements PhysicalExpr {
    public BoundColumn {
        requireNonNull(type, "type is null");
        requireNonNull(name, "name is null");
        if (index < 0) {
            throw new IllegalArgumentException("column index " + index + " of " + name);
        }
    }

    @Override
    public Col evaluate(Batch batch) {
        return batch.column(index);
    }

    @Override
    public String toString() {
        return name + "#" + index;
    }
}
