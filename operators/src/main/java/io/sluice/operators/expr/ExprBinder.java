package io.sluice.operators.expr;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.OfChildValues;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.expr.Unary;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a logical expression and the schema of the batches it will see into a {@link PhysicalExpr}:
 * column names become positions, constants become scalars, result types are computed once,
 * {@code LIKE} patterns are compiled once. Columns, constants, arithmetic, comparisons, AND/OR,
 * NOT/negation/IS NULL, CAST, LIKE, substring and CASE have physical forms; functions, date parts
 * and date arithmetic ({@link OfChildValues}) bind their children and share the logical node's
 * computation; any other node (user functions, subqueries, ...) is kept whole as its logical expression
 * ({@link LogicalExprAdapter}), which evaluates exactly as before. So is a node that does not type
 * against the schema: it fails, if it does, where it failed before, at evaluation.
 */
public final class ExprBinder {
    private ExprBinder() {
    }

    public static PhysicalExpr bind(Expr expr, Schema input) {
        DataType type;
        try {
            type = expr.type(input);
        } catch (RuntimeException e) {
            return new LogicalExprAdapter(expr, null);
        }
        if (expr instanceof Column c) {
            int index = input.indexOf(c.column());
            return index < 0 ? new LogicalExprAdapter(expr, type) : new BoundColumn(index, type, c.column());
        }
        if (expr instanceof Literal l) {
            return ScalarLiteral.of(l);
        }
        if (expr instanceof Alias a) {
            return bind(a.input(), input);
        }
        if (expr instanceof Binary b) {
            return bindBinary(b, type, input);
        }
        if (expr instanceof Unary u) {
            return new UnaryExpr(u.op(), bind(u.input(), input), type, u);
        }
        if (expr instanceof Cast c) {
            return new CastExpr(bind(c.input(), input), type);
        }
        if (expr instanceof Like l) {
            return LikeExpr.of(l, bind(l.input(), input));
        }
        if (expr instanceof Substring s) {
            return new SubstringExpr(bind(s.input(), input), s.start(), s.length());
        }
        if (expr instanceof Case c) {
            List<PhysicalExpr> results = bindAll(c.results(), input);
            results.add(bind(c.otherwise(), input));
            return new CaseExpr(c, bindAll(c.conditions(), input), results, type);
        }
        if (expr instanceof OfChildValues f) {
            return new ChildValuesExpr(f, bindAll(f.children(), input), type);
        }
        return new LogicalExprAdapter(expr, type);
    }

    /** The bound expressions, in a list the caller may extend. */
    public static List<PhysicalExpr> bindAll(List<? extends Expr> exprs, Schema input) {
        List<PhysicalExpr> out = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            out.add(bind(e, input));
        }
        return out;
    }

    private static PhysicalExpr bindBinary(Binary b, DataType type, Schema input) {
        PhysicalExpr left = bind(b.left(), input);
        PhysicalExpr right = bind(b.right(), input);
        BinaryExpr general = new BinaryExpr(b.op(), left, right, type, b);
        if (b.op().kind() == BinaryOp.Kind.COMPARISON) {
            // a string column against a non-NULL string constant: on the Arrow bytes when there are some
            if (left instanceof BoundColumn c && right instanceof ScalarLiteral s && isStringConstant(c, s)) {
                return StringCompareExpr.of(b.op(), c, (String) s.literal().value(), general);
            }
            if (right instanceof BoundColumn c && left instanceof ScalarLiteral s && isStringConstant(c, s)) {
                return StringCompareExpr.of(b.op().flip(), c, (String) s.literal().value(), general);
            }
        }
        return general;
    }

    private static boolean isStringConstant(BoundColumn column, ScalarLiteral constant) {
        return column.type().kind() == DataType.Kind.UTF8 && constant.literal().value() instanceof String;
    }
}
