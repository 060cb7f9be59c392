package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Case;
import java.util.List;

/**
 * CASE over bound conditions and results ({@code results} holds the ELSE last); the logical
 * {@link Case#choose} picks the branches, so a result is evaluated only if some row takes it.
 */
public record CaseExpr(Case source, List<PhysicalExpr> conditions, List<PhysicalExpr> results, DataType type)
        implements PhysicalExpr {
    public CaseExpr {
        requireNonNull(source, "source is null");
        conditions = List.copyOf(conditions);
        results = List.copyOf(results);
        requireNonNull(type, "type is null");
        if (results.size() != conditions.size() + 1) {
            throw new IllegalArgumentException(conditions.size() + " conditions need " + (conditions.size() + 1)
                    + " results with the ELSE, not " + results.size());
        }
    }

    @Override
    public Col evaluate(Batch batch) {
        return source.choose(batch.rowCount(), type, b -> conditions.get(b).evaluate(batch),
                b -> results.get(b).evaluate(batch));
    }

    @Override
    public String toString() {
        return "case(" + conditions + " -> " + results + ")";
    }
}
