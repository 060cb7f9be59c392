package io.sluice.plan.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.exec.Kernels;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Schema;
import java.util.List;

/** CAST(input AS type). */
public record Cast(Expr input, DataType type) implements Expr {
    public Cast {
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public DataType type(Schema schema) {
        input.type(schema);
        return type;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Cast(children.get(0), type);
    }

    @Override
    public Col evaluate(Batch batch) {
        return Kernels.cast(input.evaluate(batch), type);
    }

    @Override
    public String toString() {
        return "CAST(" + input + " AS " + type + ")";
    }
}
