package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.ArrayList;
import java.util.List;

/**
 * Lines up two inputs of {@code unionByName} by column name (ignoring case), as Spark: the output has
 * the left columns in their order, then, with missing columns allowed, the right's own; a column one
 * side lacks is a typed NULL there, or, without that permission, an error naming it.
 */
final class UnionByName {
    private UnionByName() {
    }

    static List<LogicalPlan> align(LogicalPlan left, LogicalPlan right, boolean allowMissingColumns) {
        Schema l = left.schema();
        Schema r = right.schema();
        List<Field> columns = new ArrayList<>(l.fields());
        for (Field f : r.fields()) {
            if (find(l, f.name()) < 0) {
                if (!allowMissingColumns) {
                    throw new SluiceException("unionByName: column '" + f.name() + "' of the right side is not a column"
                            + " of the left side (" + String.join(", ", l.names()) + "); pass allowMissingColumns = true"
                            + " to fill it with NULLs");
                }
                columns.add(f);
            }
        }
        for (Field f : l.fields()) {
            if (find(r, f.name()) < 0 && !allowMissingColumns) {
                throw new SluiceException("unionByName: column '" + f.name() + "' of the left side is not a column of"
                        + " the right side (" + String.join(", ", r.names()) + "); pass allowMissingColumns = true"
                        + " to fill it with NULLs");
            }
        }
        return List.of(project(left, columns), project(right, columns));
    }

    private static LogicalPlan project(LogicalPlan input, List<Field> columns) {
        Schema schema = input.schema();
        List<Expr> exprs = new ArrayList<>();
        for (Field f : columns) {
            int i = find(schema, f.name());
            exprs.add(i < 0 ? new Alias(new Cast(Literal.nullValue(), f.type()), f.name())
                    : schema.field(i).name().equals(f.name()) ? new Column(f.name())
                    : new Alias(new Column(schema.field(i).name()), f.name()));
        }
        return exprs.equals(schema.names().stream().map(n -> (Expr) new Column(n)).toList()) ? input
                : new Projection(input, exprs);
    }

    private static int find(Schema schema, String name) {
        for (int i = 0; i < schema.size(); i++) {
            if (schema.field(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
