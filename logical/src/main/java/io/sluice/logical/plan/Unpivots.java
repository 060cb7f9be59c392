package io.sluice.logical.plan;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Unpivot (Spark's {@code unpivot}/{@code melt}, SQL's {@code UNPIVOT}): each input row once per
 * value column, as the id columns, the value column's name and its value. Planned as the explode of
 * a map from each value column's name to its value (the map gives the values one common type, as
 * Spark requires), so it is one pass over the input that keeps each row's values together and
 * keeps NULL values (SQL's default EXCLUDE NULLS is a filter above).
 */
public final class Unpivots {
    private Unpivots() {
    }

    /**
     * The plan over {@code input}; {@code ids} and {@code values} are expressions over it, each
     * value's name the variable's value. No {@code values} means every column that is not an id.
     */
    public static LogicalPlan plan(LogicalPlan input, List<Expr> ids, List<Expr> values, String variableColumnName,
            String valueColumnName) {
        return plan(input, ids, values, values.stream().map(v -> unqualified(v.name())).toList(), variableColumnName,
                valueColumnName);
    }

    /** As {@link #plan(LogicalPlan, List, List, String, String)}, with the variable's value of each value given. */
    public static LogicalPlan plan(LogicalPlan input, List<Expr> ids, List<Expr> values, List<String> labels,
            String variableColumnName, String valueColumnName) {
        Set<String> idNames = new HashSet<>();
        ids.forEach(id -> idNames.add(id.name().toLowerCase(Locale.ROOT)));
        List<Expr> valueExprs = new ArrayList<>(values);
        List<String> names = new ArrayList<>(labels);
        if (values.isEmpty()) {
            for (String name : input.schema().names()) {
                if (!idNames.contains(name.toLowerCase(Locale.ROOT))) {
                    valueExprs.add(new Column(name));
                    names.add(unqualified(name));
                }
            }
        }
        if (valueExprs.isEmpty()) {
            throw new SluiceException("unpivot needs at least one value column; the ids " + idNames
                    + " are all the columns " + input.schema().names());
        }
        List<Expr> entries = new ArrayList<>();
        for (int i = 0; i < valueExprs.size(); i++) {
            entries.add(Literal.of(names.get(i)));
            entries.add(valueExprs.get(i));
        }
        LogicalPlan exploded = new Generate(input, new ScalarFunction(ScalarFunction.Function.MAP, entries), false,
                List.of(variableColumnName, valueColumnName));
        List<Expr> output = new ArrayList<>(ids);
        output.add(new Column(variableColumnName));
        output.add(new Column(valueColumnName));
        return new Projection(exploded, output);
    }

    /** A column's name without its relation's qualifier ({@code t.v} is {@code v}), as Spark names the variable. */
    public static String unqualified(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }
}
