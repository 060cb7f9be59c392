package io.sluice.api;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.NestedFunctions;
import io.sluice.logical.expr.UserFunctionCall;
import io.sluice.logical.expr.UserJar;
import io.sluice.sql.SqlExpressions;

/**
 * Turns a Column's expression into a logical one over a DataFrame's columns: a column of another
 * DataFrame ({@link PlanColumn}) through the lineage, expression text ({@link ExprText}) and functions
 * by name ({@link NamedCall}) through the SQL front end, a user function ({@link UdfCall}) into a
 * call carrying its jar where the class must travel, and field paths ({@code s.a}) into field access.
 */
final class ColumnResolver {
    private ColumnResolver() {
    }

    static Expr resolve(Expr e, Schema schema, ColumnLineage lineage, boolean remote) {
        Expr resolved = Exprs.transformUp(e, x -> {
            if (x instanceof PlanColumn p) {
                return new io.sluice.logical.expr.Column(lineage.resolve(p.dataFrame(), p.column(), schema));
            }
            if (x instanceof ExprText t) {
                return t.context() == null ? SqlExpressions.parse(t.text(), schema)
                        : SqlExpressions.parse(t.text(), schema, t.context());
            }
            if (x instanceof UdfCall u) {
                UserJar jar = u.function().getClassLoader() instanceof JobClassLoader || remote ? UserJars.of(u.function()) : null;
                return new UserFunctionCall(u.callName(), u.function().getName(), jar, u.args(), u.returnType());
            }
            if (x instanceof NamedCall c) {
                return SqlExpressions.call(c.function(), c.args(), c.distinct(), schema);
            }
            return x;
        });
        return NestedFunctions.resolveFieldPaths(resolved, schema);
    }
}
