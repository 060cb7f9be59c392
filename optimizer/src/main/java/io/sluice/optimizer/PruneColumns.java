package io.sluice.optimizer;

import io.sluice.common.NodeMemo;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.SharedSubplan;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.logical.plan.Window;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Reads and computes only the columns a query uses. Walks down with the positions of the output
 * columns the parent needs (all of them at the root) and:
 *
 * <ul>
 *   <li>narrows each table scan's projection to the needed columns, in the table's column order
 *       (keeping one column when none is needed, so that row counts survive for {@code count(*)});
 *   <li>drops projection expressions and aggregate calls nobody reads (keeping at least one output
 *       column, and one aggregate call of a global aggregate), and narrows empty relations;
 *   <li>passes needs through the other nodes, adding what their own expressions read: a join
 *       splits them between its sides (keys each on their side, the residual filter over both), a
 *       subquery alias maps them by position to its input, a union asks every input for the same
 *       positions and, where an input cannot narrow to exactly those, projects them;
 *   <li>puts a projection of the needed columns over a filter that reads columns its parent does
 *       not need, unless the parent is a projection or an aggregate (which narrow anyway): a
 *       column read only by a filter (TPC-H q13's {@code o_comment}) is not carried into a join
 *       or a shuffle.
 * </ul>
 *
 * <p>Parents refer to columns by name, so a child that outputs fewer columns than before stays
 * valid. Guarantees: the root's schema never changes; running it again changes nothing; a plan with
 * nothing to prune comes back as the same instance.
 */
public final class PruneColumns implements LogicalRule {
    @Override
    public String name() {
        return "PruneColumns";
    }

    /** What one application pruned each node to, by what was asked of it: a shared node is pruned once per distinct demand. */
    private final NodeMemo<LogicalPlan, LogicalPlan> pruned = new NodeMemo<>();

    /** What a parent asks of a node: the positions it needs (null: all) and whether it narrows anyway. */
    private record Demand(List<Integer> required, boolean parentNarrows) {
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        return new PruneColumns().prune(plan, null); // a fresh memo per application
    }

    private LogicalPlan prune(LogicalPlan plan, TreeSet<Integer> required) {
        return prune(plan, required, false);
    }

    /**
     * {@code required}: positions of the needed output columns, null meaning all of them;
     * {@code parentNarrows}: the parent computes its output from exactly the required columns (a
     * projection or an aggregate), so nothing here needs to drop the others.
     */
    private LogicalPlan prune(LogicalPlan plan, TreeSet<Integer> required, boolean parentNarrows) {
        Demand demand = new Demand(required == null ? null : List.copyOf(required), parentNarrows);
        return pruned.get(plan, demand, () -> pruneNode(plan, required, parentNarrows));
    }

    private LogicalPlan pruneNode(LogicalPlan plan, TreeSet<Integer> required, boolean parentNarrows) {
        if (plan instanceof TableScan scan) {
            return pruneScan(scan, required);
        }
        if (plan instanceof EmptyRelation empty) {
            return pruneEmpty(empty, required);
        }
        if (plan instanceof Projection p) {
            return pruneProjection(p, required);
        }
        if (plan instanceof Aggregate a) {
            return pruneAggregate(a, required);
        }
        if (plan instanceof Join j) {
            return pruneJoin(j, required);
        }
        if (plan instanceof Union u) {
            return pruneUnion(u, required);
        }
        if (plan instanceof Window w) {
            return pruneWindow(w, required);
        }
        if (plan instanceof Generate g) {
            return pruneGenerate(g, required);
        }
        if (plan instanceof SharedSubplan) {
            // every consumer reads the same output: its columns are not pruned per consumer
            return withChildren(plan, needAll(plan.children()));
        }
        // Filter, Sort, Limit, SubqueryAlias and nodes unknown here: the input has the node's columns
        // at the same positions; the node reads its expressions over its input.
        if (plan.children().size() != 1) {
            return withChildren(plan, needAll(plan.children()));
        }
        LogicalPlan input = plan.children().get(0);
        TreeSet<Integer> needs = null;
        if (required != null && input.schema().size() == plan.schema().size()) {
            needs = new TreeSet<>(required);
            for (Expr e : plan.expressions()) {
                needs.addAll(PlanRewrites.columnIndexes(e, input.schema()));
            }
        }
        LogicalPlan pruned = prune(input, needs);
        LogicalPlan out = pruned == input ? plan : plan.withNewChildren(List.of(pruned));
        if (plan instanceof Filter && !parentNarrows && needs != null && needs.size() > required.size()
                && !(input instanceof Join)) {
            return projectRequired(out, plan.schema(), required);
        }
        return out;
    }

    /**
     * {@code pruned} (the pruned form of a node whose output was {@code original}) narrowed to
     * the {@code required} positions of {@code original} by a projection, so that the columns only
     * a filter reads are dropped before a parent that carries its input's columns (a join, a
     * shuffle) copies them. Left alone when no column is required (count(*) needs the rows) or a name
     * is ambiguous. A filter right above a join is left alone too: join reordering sees filters
     * between joins, not projections.
     */
    private LogicalPlan projectRequired(LogicalPlan pruned, Schema original, TreeSet<Integer> required) {
        if (required.isEmpty()) {
            return pruned;
        }
        // positions are the unpruned node's; the pruned one may have lost columns, so go by name
        Schema schema = pruned.schema();
        List<Expr> columns = new ArrayList<>(required.size());
        for (int i : required) {
            String name = original.field(i).name();
            int at = schema.indexOf(name);
            if (at < 0 || schema.names().lastIndexOf(name) != at) {
                return pruned;
            }
            columns.add(new Column(name));
        }
        return columns.size() == schema.size() ? pruned : new Projection(pruned, columns);
    }

    private LogicalPlan pruneScan(TableScan scan, TreeSet<Integer> required) {
        if (required == null) {
            return scan;
        }
        Schema schema = scan.schema();
        List<String> needed = new ArrayList<>();
        for (int i : required) {
            needed.add(schema.field(i).name());
        }
        List<String> keep = new ArrayList<>();
        for (String column : scan.source().schema().names()) {
            if (needed.contains(column)) {
                keep.add(column);
            }
        }
        if (keep.isEmpty()) {
            keep.add(schema.field(0).name()); // count(*) still needs row counts
        }
        if (keep.equals(schema.names())) {
            return scan;
        }
        List<Field> fields = new ArrayList<>();
        for (String column : keep) {
            fields.add(schema.indexOf(column) >= 0 ? schema.field(column) : scan.source().schema().field(column));
        }
        return new TableScan(scan.source(), keep, new Schema(fields)); // keeps the struct fields PruneNestedFields narrowed
    }

    private LogicalPlan pruneEmpty(EmptyRelation empty, TreeSet<Integer> required) {
        if (required == null || required.size() == empty.schema().size()) {
            return empty;
        }
        List<Field> fields = new ArrayList<>();
        for (int i : required) {
            fields.add(empty.schema().field(i));
        }
        if (fields.isEmpty()) {
            fields.add(empty.schema().field(0));
        }
        return new EmptyRelation(new Schema(fields));
    }

    private LogicalPlan pruneProjection(Projection p, TreeSet<Integer> required) {
        List<Expr> exprs = p.exprs();
        if (required != null && required.size() < exprs.size()) {
            List<Expr> kept = new ArrayList<>();
            for (int i : required) {
                kept.add(exprs.get(i));
            }
            if (kept.isEmpty()) {
                kept.add(exprs.get(0));
            }
            exprs = kept;
        }
        TreeSet<Integer> needs = new TreeSet<>();
        for (Expr e : exprs) {
            needs.addAll(PlanRewrites.columnIndexes(e, p.input().schema()));
        }
        LogicalPlan input = prune(p.input(), needs, true);
        if (input == p.input() && exprs == p.exprs()) {
            return p;
        }
        return new Projection(input, exprs);
    }

    private LogicalPlan pruneAggregate(Aggregate a, TreeSet<Integer> required) {
        List<Expr> aggregates = a.aggregates();
        int keys = a.groupBy().size();
        if (required != null) {
            List<Expr> kept = new ArrayList<>();
            for (int i = 0; i < aggregates.size(); i++) {
                if (required.contains(keys + i)) {
                    kept.add(aggregates.get(i));
                }
            }
            if (kept.isEmpty() && keys == 0 && !aggregates.isEmpty()) {
                kept.add(aggregates.get(0)); // a global aggregate must still output its one row
            }
            if (kept.size() < aggregates.size()) {
                aggregates = kept;
            }
        }
        TreeSet<Integer> needs = new TreeSet<>();
        for (Expr e : a.groupBy()) {
            needs.addAll(PlanRewrites.columnIndexes(e, a.input().schema()));
        }
        for (Expr e : aggregates) {
            needs.addAll(PlanRewrites.columnIndexes(e, a.input().schema()));
        }
        LogicalPlan input = prune(a.input(), needs, true);
        if (input == a.input() && aggregates == a.aggregates()) {
            return a;
        }
        return new Aggregate(input, a.groupBy(), aggregates);
    }

    /**
     * A window outputs its input's columns at the same positions, then one column per call: calls
     * nobody reads are dropped (the node goes when none is left); the input is asked for the
     * needed pass-through columns and what the kept calls read.
     */
    private LogicalPlan pruneWindow(Window w, TreeSet<Integer> required) {
        Schema inputSchema = w.input().schema();
        int width = inputSchema.size();
        List<Expr> calls = w.windowExprs();
        if (required != null) {
            List<Expr> kept = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                if (required.contains(width + i)) {
                    kept.add(calls.get(i));
                }
            }
            if (kept.isEmpty()) {
                return prune(w.input(), required);
            }
            if (kept.size() < calls.size()) {
                calls = kept;
            }
        }
        TreeSet<Integer> needs = null;
        if (required != null) {
            needs = new TreeSet<>(required.headSet(width));
            for (Expr e : calls) {
                needs.addAll(PlanRewrites.columnIndexes(e, inputSchema));
            }
        }
        LogicalPlan input = prune(w.input(), needs);
        if (input == w.input() && calls == w.windowExprs()) {
            return w;
        }
        return new Window(input, calls);
    }

    /** The input columns required above plus those the generator reads; the generated columns stay (they make the rows). */
    private LogicalPlan pruneGenerate(Generate g, TreeSet<Integer> required) {
        TreeSet<Integer> needs = null;
        if (required != null) {
            Schema inputSchema = g.input().schema();
            needs = new TreeSet<>(required.headSet(inputSchema.size()));
            needs.addAll(PlanRewrites.columnIndexes(g.generator(), inputSchema));
        }
        LogicalPlan input = prune(g.input(), needs);
        return input == g.input() ? g : g.withNewChildren(List.of(input));
    }

    private LogicalPlan pruneJoin(Join j, TreeSet<Integer> required) {
        Schema left = j.left().schema();
        Schema right = j.right().schema();
        int leftSize = left.size();
        TreeSet<Integer> leftNeeds = null;
        TreeSet<Integer> rightNeeds = null;
        if (required != null || !j.type().outputsRight()) {
            leftNeeds = required == null ? null : new TreeSet<>();
            rightNeeds = new TreeSet<>();
            if (required != null) {
                for (int i : required) {
                    if (i < leftSize) {
                        leftNeeds.add(i);
                    } else if (j.mark() == null) { // a mark join's last column is its mark
                        rightNeeds.add(i - leftSize);
                    }
                }
            }
            if (leftNeeds != null) {
                for (Expr e : j.leftKeys()) {
                    leftNeeds.addAll(PlanRewrites.columnIndexes(e, left));
                }
            }
            for (Expr e : j.rightKeys()) {
                rightNeeds.addAll(PlanRewrites.columnIndexes(e, right));
            }
            List<Expr> conditions = new ArrayList<>();
            if (j.filter() != null) {
                conditions.add(j.filter());
            }
            if (j.mark() != null) {
                conditions.add(j.mark().condition());
            }
            for (Expr condition : conditions) {
                for (int i : PlanRewrites.columnIndexes(condition, j.combinedSchema())) {
                    if (i >= leftSize) {
                        rightNeeds.add(i - leftSize);
                    } else if (leftNeeds != null) {
                        leftNeeds.add(i);
                    }
                }
            }
        }
        LogicalPlan l = prune(j.left(), leftNeeds);
        LogicalPlan r = prune(j.right(), rightNeeds);
        return l == j.left() && r == j.right() ? j : j.withNewChildren(List.of(l, r));
    }

    private LogicalPlan pruneUnion(Union u, TreeSet<Integer> required) {
        if (required == null) {
            return withChildren(u, needAll(u.inputs()));
        }
        TreeSet<Integer> needs = new TreeSet<>(required);
        if (needs.isEmpty()) {
            needs.add(0);
        }
        List<LogicalPlan> inputs = new ArrayList<>(u.inputs().size());
        boolean changed = false;
        for (LogicalPlan input : u.inputs()) {
            List<String> names = new ArrayList<>();
            for (int i : needs) {
                names.add(input.schema().field(i).name());
            }
            LogicalPlan pruned = prune(input, needs);
            if (!pruned.schema().names().equals(names)) {
                List<Expr> columns = new ArrayList<>();
                names.forEach(n -> columns.add(new Column(n)));
                pruned = new Projection(pruned, columns);
            }
            changed |= pruned != input;
            inputs.add(pruned);
        }
        return changed ? new Union(inputs) : u;
    }

    private List<TreeSet<Integer>> needAll(List<LogicalPlan> children) {
        List<TreeSet<Integer>> out = new ArrayList<>();
        children.forEach(c -> out.add(null));
        return out;
    }

    private LogicalPlan withChildren(LogicalPlan plan, List<TreeSet<Integer>> needs) {
        List<LogicalPlan> children = plan.children();
        List<LogicalPlan> rewritten = new ArrayList<>(children.size());
        boolean changed = false;
        for (int i = 0; i < children.size(); i++) {
            LogicalPlan r = prune(children.get(i), needs.get(i));
            changed |= r != children.get(i);
            rewritten.add(r);
        }
        return changed ? plan.withNewChildren(rewritten) : plan;
    }
}
