package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Spark's {@code unpivot} ({@code melt}): each input row once per value column, as the id columns,
 * the value column's name and its value. Planned as the explode of a map from each value column's
 * name to its value (the map gives the values one common type, as Spark requires), so it is one
 * pass over the input that keeps each row's values together and keeps NULL values, as Spark does.
 */
final class Unpivots {
    private Unpivots() {
    }

    /** The plan; no {@code values} means every column that is not an id. */
    static LogicalPlan plan(DataFrame input, List<io.sluice.api.Column> ids, List<io.sluice.api.Column> values,
            String variableColumnName, String valueColumnName) {
        List<Expr> idExprs = new ArrayList<>();
        Set<String> idNames = new HashSet<>();
        for (io.sluice.api.Column id : ids) {
            Expr e = input.resolve(id.expr());
            idExprs.add(e);
            idNames.add(e.name().toLowerCase(Locale.ROOT));
        }
        List<Expr> valueExprs = new ArrayList<>();
        if (values.isEmpty()) {
            for (String name : input.schema().names()) {
                if (!idNames.contains(name.toLowerCase(Locale.ROOT))) {
                    valueExprs.add(new Column(name));
                }
            }
        } else {
            values.forEach(v -> valueExprs.add(input.resolve(v.expr())));
        }
        if (valueExprs.isEmpty()) {
            throw new SluiceException("unpivot needs at least one value column; the ids " + idNames
                    + " are all the columns " + input.schema().names());
        }
        List<Expr> entries = new ArrayList<>();
        for (Expr v : valueExprs) {
            entries.add(Literal.of(v.name()));
            entries.add(v);
        }
        LogicalPlan exploded = new Generate(input.logicalPlan(), new ScalarFunction(ScalarFunction.Function.MAP, entries),
                false, List.of(variableColumnName, valueColumnName));
        List<Expr> output = new ArrayList<>(idExprs);
        output.add(new Column(variableColumnName));
        output.add(new Column(valueColumnName));
        return new Projection(exploded, output);
    }
}
