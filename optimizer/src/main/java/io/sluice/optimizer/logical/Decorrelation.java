package io.sluice.optimizer.logical;

import io.sluice.plan.expr.Binary;
import io.sluice.plan.expr.BinaryOp;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.expr.OuterColumn;
import io.sluice.plan.expr.SubqueryExpr;
import io.sluice.plan.expr.Literal;
import io.sluice.plan.logical.Filter;
import io.sluice.plan.logical.Join;
import io.sluice.plan.logical.JoinType;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.logical.SubqueryAlias;
import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the decorrelation rules share: applying a rule inside nested subquery plans, finding the
 * correlated predicates of a subquery, and giving the subquery side of the new join fresh column
 * names ({@code __sqN.c}) so they never clash with the outer query's.
 */
final class Decorrelation {
    private Decorrelation() {
    }

    /**
     * {@code node} with {@code rule} applied to every subquery plan its expressions hold (Filter and
     * Projection are where the SQL front end puts them); the same instance when nothing changes.
     */
    static LogicalPlan rewriteNested(LogicalPlan node, UnaryOperator<LogicalPlan> rule) {
        if (node instanceof Filter f) {
            Expr p = rewriteNested(f.predicate(), rule);
            return p == f.predicate() ? f : new Filter(f.input(), p);
        }
        if (node instanceof Projection p) {
            List<Expr> exprs = new ArrayList<>();
            boolean changed = false;
            for (Expr e : p.exprs()) {
                Expr r = rewriteNested(e, rule);
                changed |= r != e;
                exprs.add(r);
            }
            return changed ? new Projection(p.input(), exprs) : p;
        }
        return node;
    }

    private static Expr rewriteNested(Expr e, UnaryOperator<LogicalPlan> rule) {
        return Exprs.transformUp(e, x -> {
            if (x instanceof SubqueryExpr s) {
                LogicalPlan r = rule.apply(s.subquery());
                return r == s.subquery() ? x : s.withSubquery(r);
            }
            return x;
        });
    }

    /**
     * A join of every left row with every right row, as an equi-join on the constant key pair
     * {@code 0 = 0}, which puts all rows in one hash bucket (fine for the one-row or small right
     * sides used here). The physical planner keys a keyless join the same way; keying it here
     * already keeps the decorrelated plans' printed form stable.
     */
    static Join keyedCross(LogicalPlan left, LogicalPlan right, JoinType type, Expr filter) {
        return new Join(left, right, type, List.of(Literal.of(0L)), List.of(Literal.of(0L)), filter);
    }

    /** Whether some node of {@code plan} (not of plans nested deeper) reads an outer column. */
    static boolean isCorrelated(LogicalPlan plan) {
        for (Expr e : plan.expressions()) {
            if (Exprs.containsOuterColumn(e)) {
                return true;
            }
        }
        for (LogicalPlan child : plan.children()) {
            if (isCorrelated(child)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A subquery body split into the correlated conjuncts of the filters at its top and the body
     * without them (a filter left with no conjunct disappears).
     */
    record Pulled(LogicalPlan body, List<Expr> correlated) {
    }

    static Pulled pullCorrelated(LogicalPlan body) {
        if (!(body instanceof Filter f)) {
            return new Pulled(body, List.of());
        }
        Pulled below = pullCorrelated(f.input());
        List<Expr> correlated = new ArrayList<>(below.correlated());
        List<Expr> kept = new ArrayList<>();
        for (Expr c : Exprs.conjuncts(f.predicate())) {
            (Exprs.containsOuterColumn(c) ? correlated : kept).add(c);
        }
        LogicalPlan rest = kept.isEmpty() ? below.body() : new Filter(below.body(), Exprs.and(kept));
        return new Pulled(rest, correlated);
    }

    /**
     * A correlated equality {@code outer-expr = inner-expr} (either order) as a pair of join keys:
     * {@code [outer side over the outer input, inner side over the subquery body]}; null for any
     * other predicate.
     */
    static Expr[] equiKey(Expr conjunct) {
        if (conjunct instanceof Binary b && b.op() == BinaryOp.EQ) {
            if (outerOnly(b.left()) && innerOnly(b.right())) {
                return new Expr[] {toOuterInput(b.left()), b.right()};
            }
            if (innerOnly(b.left()) && outerOnly(b.right())) {
                return new Expr[] {toOuterInput(b.right()), b.left()};
            }
        }
        return null;
    }

    private static boolean outerOnly(Expr e) {
        return Exprs.containsOuterColumn(e) && Exprs.columns(e).isEmpty() && Exprs.subqueries(e).isEmpty();
    }

    private static boolean innerOnly(Expr e) {
        return !Exprs.containsOuterColumn(e) && !Exprs.columns(e).isEmpty() && Exprs.subqueries(e).isEmpty();
    }

    /** Outer columns become plain columns: the expression now reads the join's left input. */
    static Expr toOuterInput(Expr e) {
        return Exprs.transformUp(e, x -> x instanceof OuterColumn o ? new Column(o.name()) : x);
    }

    /** {@code __sqN} for the smallest N no column of {@code schema} is qualified with. */
    static String freshQualifier(Schema schema) {
        for (int n = 1; ; n++) {
            String prefix = "__sq" + n + ".";
            if (schema.names().stream().noneMatch(name -> name.startsWith(prefix))) {
                return "__sq" + n;
            }
        }
    }

    /**
     * The subquery side of a join: a projection of {@code outputs} (expressions over {@code body})
     * under fresh names {@code qualifier.c}, {@code c} being each output's unqualified name, made
     * unique with a suffix. {@link #name} then gives the column an output became.
     */
    static final class RightSide {
        private final Map<Expr, String> names = new LinkedHashMap<>();
        private final String qualifier;

        RightSide(String qualifier) {
            this.qualifier = qualifier;
        }

        /** Adds an output (once per distinct expression) and returns its column. */
        Column add(Expr e, String preferred) {
            String name = names.get(e);
            if (name == null) {
                String base = qualifier + "." + SubqueryAlias.unqualified(preferred);
                name = base;
                for (int i = 2; names.containsValue(name); i++) {
                    name = base + "_" + i;
                }
                names.put(e, name);
            }
            return new Column(name);
        }

        Column add(Expr e) {
            return add(e, Exprs.unalias(e).name());
        }

        LogicalPlan build(LogicalPlan body) {
            List<Expr> exprs = new ArrayList<>();
            names.forEach((e, name) -> exprs.add(PlanRewrites.named(e, name)));
            return new Projection(body, exprs);
        }

        /** {@code e} over the new join's combined columns: each inner column by its output name. */
        Expr rebaseResidual(Expr e) {
            Expr inner = PlanRewrites.replaceColumns(e, c -> add(c));
            return toOuterInput(inner);
        }
    }
}
