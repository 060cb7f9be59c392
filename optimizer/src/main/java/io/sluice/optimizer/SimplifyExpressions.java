package io.sluice.optimizer;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.ConstantFolder;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Simplifies expressions so later rules see plain shapes ({@code Filter(true)}, {@code Filter(false)})
 * and executors compute less:
 *
 * <ul>
 *   <li>constant folding: a subtree that reads no column is computed once by the
 *       {@link ConstantFolder} (by the same code the executors use) and replaced by its value; a subtree
 *       whose evaluation fails (overflow, bad cast) is left alone, so the error still happens at run
 *       time if ever the rows reach it;
 *   <li>boolean identities, all exact under SQL's three-valued logic: {@code x AND true → x},
 *       {@code x AND false → false} (false whatever x is, NULL included), {@code x OR false → x},
 *       {@code x OR true → true}, {@code NOT NOT x → x}. The rewrites that return {@code x} apply
 *       only when x is boolean-typed, so no output type changes.
 * </ul>
 *
 * <p>Guarantees: every node keeps its schema, names included (a rewritten select or group-by
 * expression is aliased to its old name, an aggregate too); a plan with nothing to simplify comes
 * back as the same instance.
 */
public final class SimplifyExpressions implements NodeRule {
    private final ConstantFolder constants;

    public SimplifyExpressions(ConstantFolder constants) {
        this.constants = requireNonNull(constants, "constants is null");
    }

    @Override
    public String name() {
        return "SimplifyExpressions";
    }

    /**
     * Top-down: a node's expressions are simplified over its input's schema, which simplification
     * below never changes, so the order does not matter and no node needs its children first.
     */
    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.TOP_DOWN;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan plan) {
        if (plan instanceof Filter f) {
            Expr p = simplify(f.predicate(), f.input().schema());
            return p == f.predicate() ? f : new Filter(f.input(), p);
        }
        if (plan instanceof Projection p) {
            List<Expr> exprs = simplifyNamed(p.exprs(), p.input().schema());
            return exprs == p.exprs() ? p : new Projection(p.input(), exprs);
        }
        if (plan instanceof Aggregate a) {
            Schema in = a.input().schema();
            List<Expr> groupBy = simplifyNamed(a.groupBy(), in);
            List<Expr> aggregates = new ArrayList<>(a.aggregates().size());
            boolean changed = groupBy != a.groupBy();
            for (Expr e : a.aggregates()) {
                AggregateCall call = (AggregateCall) Exprs.unalias(e);
                Expr r = e;
                if (call.argument() != null) {
                    Expr arg = simplify(call.argument(), in);
                    Expr second = call.second() == null ? null : simplify(call.second(), in);
                    if (arg != call.argument() || second != call.second()) {
                        r = PlanRewrites.named(new AggregateCall(call.function(), arg, second), e.name());
                    }
                }
                changed |= r != e;
                aggregates.add(r);
            }
            return changed ? new Aggregate(a.input(), groupBy, aggregates) : a;
        }
        if (plan instanceof Sort s) {
            List<SortKey> keys = new ArrayList<>(s.keys().size());
            boolean changed = false;
            for (SortKey k : s.keys()) {
                Expr e = simplify(k.expr(), s.input().schema());
                changed |= e != k.expr();
                keys.add(e == k.expr() ? k : new SortKey(e, k.ascending(), k.nullsFirst()));
            }
            return changed ? new Sort(s.input(), keys, s.fetch()) : s;
        }
        if (plan instanceof Join j) {
            List<Expr> leftKeys = simplifyAll(j.leftKeys(), j.left().schema());
            List<Expr> rightKeys = simplifyAll(j.rightKeys(), j.right().schema());
            Expr filter = j.filter() == null ? null : simplify(j.filter(), j.combinedSchema());
            if (filter instanceof Literal l && Boolean.TRUE.equals(l.value())) {
                filter = null; // a residual that always holds is no residual
            }
            if (leftKeys == j.leftKeys() && rightKeys == j.rightKeys() && filter == j.filter()) {
                return j;
            }
            return j.withCondition(leftKeys, rightKeys, filter);
        }
        return plan;
    }

    /** Simplifies each expression, keeping its output name; the same list when none changes. */
    private List<Expr> simplifyNamed(List<Expr> exprs, Schema input) {
        List<Expr> out = new ArrayList<>(exprs.size());
        boolean changed = false;
        for (Expr e : exprs) {
            Expr r = simplify(e, input);
            if (r != e) {
                r = PlanRewrites.named(r, e.name());
                changed = true;
            }
            out.add(r);
        }
        return changed ? out : exprs;
    }

    private List<Expr> simplifyAll(List<Expr> exprs, Schema input) {
        List<Expr> out = new ArrayList<>(exprs.size());
        boolean changed = false;
        for (Expr e : exprs) {
            Expr r = simplify(e, input);
            changed |= r != e;
            out.add(r);
        }
        return changed ? out : exprs;
    }

    /** Simplifies bottom-up; the same instance when nothing applies. */
    Expr simplify(Expr expr, Schema input) {
        return Exprs.transformUp(expr, e -> simplifyOne(e, input));
    }

    private Expr simplifyOne(Expr e, Schema input) {
        if (e instanceof Literal || e instanceof Alias || e instanceof AggregateCall || e.children().isEmpty()) {
            return e;
        }
        if (e.children().stream().allMatch(c -> c instanceof Literal)) {
            Optional<Literal> folded = constants.fold(e, input);
            if (folded.isPresent()) {
                return folded.get();
            }
        }
        if (e instanceof Binary b && b.op() == BinaryOp.AND) {
            if (isBool(b.left(), false) || isBool(b.right(), false)) {
                return Literal.of(false);
            }
            if (isBool(b.right(), true) && isBoolean(b.left(), input)) {
                return b.left();
            }
            if (isBool(b.left(), true) && isBoolean(b.right(), input)) {
                return b.right();
            }
        }
        if (e instanceof Binary b && b.op() == BinaryOp.OR) {
            if (isBool(b.left(), true) || isBool(b.right(), true)) {
                return Literal.of(true);
            }
            if (isBool(b.right(), false) && isBoolean(b.left(), input)) {
                return b.left();
            }
            if (isBool(b.left(), false) && isBoolean(b.right(), input)) {
                return b.right();
            }
        }
        if (e instanceof Unary u && u.op() == Unary.Op.NOT && u.input() instanceof Unary inner
                && inner.op() == Unary.Op.NOT && isBoolean(inner.input(), input)) {
            return inner.input();
        }
        return e;
    }

    private static boolean isBool(Expr e, boolean value) {
        return e instanceof Literal l && l.value() instanceof Boolean b && b == value;
    }

    private static boolean isBoolean(Expr e, Schema input) {
        return e.type(input).kind() == DataType.Kind.BOOL;
    }
}
