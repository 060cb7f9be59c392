package io.sluice.logical.expr;

import io.sluice.common.types.BinaryOp;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Helpers over expression trees. */
public final class Exprs {
    private Exprs() {
    }

    public static boolean containsAggregate(Expr expr) {
        if (expr instanceof AggregateCall || expr instanceof GroupingCall) {
            return true;
        }
        for (Expr child : expr.children()) {
            if (containsAggregate(child)) {
                return true;
            }
        }
        return false;
    }

    public static boolean containsWindow(Expr expr) {
        if (expr instanceof WindowCall) {
            return true;
        }
        for (Expr child : expr.children()) {
            if (containsWindow(child)) {
                return true;
            }
        }
        return false;
    }

    /** Names of the columns an expression reads, in first-use order. */
    public static Set<String> columns(Expr expr) {
        Set<String> out = new LinkedHashSet<>();
        collectColumns(expr, out);
        return out;
    }

    private static void collectColumns(Expr expr, Set<String> out) {
        if (expr instanceof Column c) {
            out.add(c.column());
        }
        for (Expr child : expr.children()) {
            collectColumns(child, out);
        }
    }

    /** Rewrites bottom-up; {@code fn} sees each node after its children were rewritten. */
    public static Expr transformUp(Expr expr, Function<Expr, Expr> fn) {
        List<Expr> children = expr.children();
        if (!children.isEmpty()) {
            List<Expr> rewritten = new ArrayList<>(children.size());
            boolean changed = false;
            for (Expr child : children) {
                Expr r = transformUp(child, fn);
                changed |= r != child;
                rewritten.add(r);
            }
            if (changed) {
                expr = expr.withChildren(rewritten);
            }
        }
        return fn.apply(expr);
    }

    /** Splits a predicate into its AND-ed parts. */
    public static List<Expr> conjuncts(Expr predicate) {
        List<Expr> out = new ArrayList<>();
        splitConjuncts(predicate, out);
        return out;
    }

    private static void splitConjuncts(Expr e, List<Expr> out) {
        if (e instanceof Binary b && b.op() == BinaryOp.AND) {
            splitConjuncts(b.left(), out);
            splitConjuncts(b.right(), out);
        } else {
            out.add(e);
        }
    }

    public static Expr and(List<Expr> parts) {
        Expr out = null;
        for (Expr p : parts) {
            out = out == null ? p : new Binary(BinaryOp.AND, out, p);
        }
        return out == null ? Literal.of(true) : out;
    }

    /** Whether {@code expr} reads an {@link OuterColumn} (not looking into nested subquery plans). */
    public static boolean containsOuterColumn(Expr expr) {
        if (expr instanceof OuterColumn) {
            return true;
        }
        for (Expr child : expr.children()) {
            if (containsOuterColumn(child)) {
                return true;
            }
        }
        return false;
    }

    /** Strips an alias. */
    public static Expr unalias(Expr e) {
        return e instanceof Alias a ? a.input() : e;
    }
}
