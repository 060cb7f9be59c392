package io.sluice.optimizer;

import io.sluice.common.NodeMemo;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.SubqueryExpr;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Plan helpers shared by the logical rules. Every rewrite here returns the very same instance when
 * nothing changed, which the optimizer's fixed-point detection and the rules' contract rely on.
 *
 * <p>Columns are referred to by name and resolved through {@link Schema#indexOf}, which also accepts
 * unqualified or differently cased names. When an expression moves to another node, its columns are
 * rewritten by position ({@link #rebase}) to the exact names of the destination's input, so that
 * meaning never depends on how a name happened to resolve.
 */
final class PlanRewrites {
    private PlanRewrites() {
    }

    /**
     * Rewrites bottom-up: {@code fn} sees each node after its children were rewritten. A node
     * shared by several parents is rewritten once and its result shared ({@code fn} depends on
     * the node alone).
     */
    static LogicalPlan transformUp(LogicalPlan plan, UnaryOperator<LogicalPlan> fn) {
        return transformUp(plan, fn, new NodeMemo<>());
    }

    private static LogicalPlan transformUp(LogicalPlan plan, UnaryOperator<LogicalPlan> fn,
            NodeMemo<LogicalPlan, LogicalPlan> memo) {
        return memo.get(plan, node -> fn.apply(mapChildren(node, child -> transformUp(child, fn, memo))));
    }

    /** The plan with {@code fn} applied to each child; the same instance when no child changed. */
    static LogicalPlan mapChildren(LogicalPlan plan, UnaryOperator<LogicalPlan> fn) {
        List<LogicalPlan> children = plan.children();
        List<LogicalPlan> rewritten = null;
        for (int i = 0; i < children.size(); i++) {
            LogicalPlan child = children.get(i);
            LogicalPlan r = fn.apply(child);
            if (r != child && rewritten == null) {
                rewritten = new ArrayList<>(children);
            }
            if (rewritten != null) {
                rewritten.set(i, r);
            }
        }
        return rewritten == null ? plan : plan.withNewChildren(rewritten);
    }

    /**
     * Whether some node of {@code plan}, or of a plan nested in its expressions (subqueries),
     * satisfies {@code test}; each shared node is tested once.
     */
    static boolean anyNode(LogicalPlan plan, Predicate<LogicalPlan> test) {
        return anyNode(plan, true, test);
    }

    /** {@link #anyNode(LogicalPlan, Predicate)}, looking into subquery plans only when {@code subqueries}. */
    static boolean anyNode(LogicalPlan plan, boolean subqueries, Predicate<LogicalPlan> test) {
        Set<LogicalPlan> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<LogicalPlan> pending = new ArrayDeque<>();
        pending.push(plan);
        while (!pending.isEmpty()) {
            LogicalPlan node = pending.pop();
            if (!seen.add(node)) {
                continue;
            }
            if (test.test(node)) {
                return true;
            }
            for (Expr e : subqueries ? node.expressions() : List.<Expr>of()) {
                for (SubqueryExpr s : SubqueryExpr.in(e)) {
                    pending.push(s.subquery());
                }
            }
            node.children().forEach(pending::push);
        }
        return false;
    }

    /** {@code action} on each node of {@code plan} and of the plans nested in it, a shared node once. */
    static void forEachNode(LogicalPlan plan, Consumer<LogicalPlan> action) {
        anyNode(plan, node -> {
            action.accept(node);
            return false;
        });
    }

    /** Positions in {@code schema} of the columns {@code expr} reads. */
    static Set<Integer> columnIndexes(Expr expr, Schema schema) {
        Set<Integer> out = new LinkedHashSet<>();
        for (String name : Exprs.columns(expr)) {
            out.add(indexOf(schema, name));
        }
        return out;
    }

    static int indexOf(Schema schema, String name) {
        int index = schema.indexOf(name);
        if (index < 0) {
            throw new IllegalStateException("column '" + name + "' is not in " + schema);
        }
        return index;
    }

    /** Replaces each column reference by {@code fn(column)}; the same instance if none changes. */
    static Expr replaceColumns(Expr expr, Function<Column, Expr> fn) {
        return Exprs.transformUp(expr, e -> e instanceof Column c ? fn.apply(c) : e);
    }

    /**
     * {@code expr}, which reads columns of {@code from}, re-expressed over {@code to}: the column at
     * position {@code i} of {@code from} becomes the one at {@code i - offset} of {@code to}.
     */
    static Expr rebase(Expr expr, Schema from, Schema to, int offset) {
        return replaceColumns(expr, c -> {
            String name = to.field(indexOf(from, c.column()) - offset).name();
            return name.equals(c.column()) ? c : new Column(name);
        });
    }

    /** {@code expr} under the name {@code name}: aliased when its own name differs. */
    static Expr named(Expr expr, String name) {
        Expr bare = Exprs.unalias(expr);
        if (bare.name().equals(name)) {
            return bare;
        }
        return expr instanceof Alias a && a.alias().equals(name) ? expr : new Alias(bare, name);
    }

    /**
     * {@code plan} with exactly the names and types of {@code target} (same column count): the plan
     * itself when they already match, else a projection that renames and casts.
     */
    static LogicalPlan conform(LogicalPlan plan, Schema target) {
        Schema schema = plan.schema();
        if (schema.equals(target)) {
            return plan;
        }
        List<Expr> exprs = new ArrayList<>(target.size());
        for (int i = 0; i < target.size(); i++) {
            Field have = schema.field(i);
            Field want = target.field(i);
            Expr e = new Column(have.name());
            if (!have.type().equals(want.type())) {
                e = new Cast(e, want.type());
            }
            exprs.add(named(e, want.name()));
        }
        return new Projection(plan, exprs);
    }

    /** Whether the expression reads no column (a constant). */
    static boolean isConstant(Expr expr) {
        return Exprs.columns(expr).isEmpty();
    }
}
