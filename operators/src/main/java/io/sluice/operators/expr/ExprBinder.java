package io.sluice.operators.expr;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AddInterval;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.DateTrunc;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Extract;
import io.sluice.logical.expr.HigherOrderCall;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.LambdaVariable;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.RegexMatch;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.NestedFunctions;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.expr.Unevaluable;
import io.sluice.logical.expr.UserFunctionCall;
import io.sluice.logical.function.FunctionCall;
import io.sluice.operators.function.FunctionKernels;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a logical expression and the schema of the batches it will see into a {@link PhysicalExpr}:
 * column names become positions, constants become scalars, result types are computed once,
 * {@code LIKE} patterns are compiled once. Every expression the engine evaluates has a physical
 * form here; logical expressions only describe. One a planner should have rewritten away
 * ({@link Unevaluable}) binds to {@link UnevaluableExpr}, which fails with its error when
 * evaluated; one that does not type against the schema binds to {@link UntypedExpr}, which fails,
 * if it does, at evaluation, as before.
 */
public final class ExprBinder {
    private ExprBinder() {
    }

    public static PhysicalExpr bind(Expr expr, Schema input) {
        DataType type;
        try {
            type = expr.type(input);
        } catch (RuntimeException e) {
            return new UntypedExpr(expr);
        }
        if (expr instanceof Column c) {
            return new BoundColumn(input.indexOf(c.column()), type, c.column());
        }
        if (expr instanceof LambdaVariable v) {
            return new BoundColumn(input.indexOf(v.fieldName()), type, v.name());
        }
        if (expr instanceof HigherOrderCall h) {
            return HigherOrderExpr.bind(h, input, type);
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
            return new CastExpr(bind(c.input(), input), type, c.mode());
        }
        if (expr instanceof InList l) {
            return InListExpr.bind(l, bind(l.value(), input), bindAll(l.items(), input), bind(l.comparisons(), input));
        }
        if (expr instanceof Like l) {
            return LikeExpr.of(l, bind(l.input(), input));
        }
        if (expr instanceof RegexMatch r) {
            return LikeExpr.of(r, bind(r.input(), input));
        }
        if (expr instanceof Substring s) {
            return new SubstringExpr(bind(s.input(), input), s.start(), s.length());
        }
        if (expr instanceof Case c) {
            List<PhysicalExpr> results = bindAll(c.results(), input);
            results.add(bind(c.otherwise(), input));
            return new CaseExpr(c, bindAll(c.conditions(), input), results, type);
        }
        ChildValuesFunction function = childValuesFunction(expr);
        if (function != null) {
            List<PhysicalExpr> children = bindAll(expr.children(), input);
            ChildValuesExpr general = new ChildValuesExpr(function, children, type);
            if (expr instanceof ScalarFunction f && f.function() == ScalarFunction.Function.GET_FIELD) {
                return new FieldAccessExpr(children.get(0), NestedFunctions.fieldIndex(f, children.get(0).type()), type, general);
            }
            if (expr instanceof ScalarFunction f && f.function() == ScalarFunction.Function.SIZE) {
                return new ListSizeExpr(children.get(0), general);
            }
            return general;
        }
        if (expr instanceof FunctionCall f) {
            return new FunctionCallExpr(f, FunctionKernels.of(f), bindAll(f.args(), input), type);
        }
        if (expr instanceof UserFunctionCall f) {
            return new UserFunctionExpr(f, bindAll(f.args(), input));
        }
        if (expr instanceof Unevaluable u) {
            return new UnevaluableExpr(u, type);
        }
        throw new IllegalArgumentException("no physical form for " + expr.getClass().getName() + ": " + expr);
    }

    /** How the values of a function, date part or date arithmetic are computed; null for another expression. */
    static ChildValuesFunction childValuesFunction(Expr expr) {
        if (expr instanceof ScalarFunction f) {
            return f.function().isNested() ? new NestedFunctionEvaluator(f) : new ScalarFunctionEvaluator(f);
        }
        if (expr instanceof Extract e) {
            return new ExtractEvaluator(e);
        }
        if (expr instanceof DateTrunc t) {
            return new DateTruncEvaluator(t);
        }
        if (expr instanceof AddInterval a) {
            return new AddIntervalEvaluator(a);
        }
        return null;
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
