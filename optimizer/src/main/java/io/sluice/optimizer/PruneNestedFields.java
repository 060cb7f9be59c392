package io.sluice.optimizer;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.OuterColumn;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.SubqueryExpr;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.logical.source.FileFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads only the struct fields a query uses, as Spark's {@code NestedSchemaPruning}: a Parquet
 * scan's STRUCT column whose every reference reads fields ({@code s.a}, {@code s.b.c}) is narrowed
 * to a STRUCT of just those fields, at any depth, so the reader decodes only their leaves (EXPLAIN
 * shows the scan's {@code read_schema}). Field access resolves by name, so every expression above
 * reads the narrower struct unchanged.
 *
 * <p>References are matched by unqualified column name over the whole plan, which is conservative:
 * one bare use of the name anywhere (an expression, an output of the root, a union position whose
 * inputs are named differently) keeps the whole struct, and a plan with subqueries is left alone.
 * Runs after {@link PruneColumns}, which keeps a scan's narrowed types. Running it again changes
 * nothing; a plan with nothing to narrow comes back as the same instance.
 */
public final class PruneNestedFields implements LogicalRule {
    @Override
    public String name() {
        return "PruneNestedFields";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        References references = new References();
        if (!references.collect(plan, new IdentityHashMap<>())) {
            return plan;
        }
        plan.schema().names().forEach(references::whole);
        if (references.paths.keySet().stream().allMatch(references.bare::contains)) {
            return plan;
        }
        return rewrite(plan, references, new IdentityHashMap<>());
    }

    private static LogicalPlan rewrite(LogicalPlan plan, References references, Map<LogicalPlan, LogicalPlan> done) {
        LogicalPlan known = done.get(plan);
        if (known != null) {
            return known;
        }
        LogicalPlan out;
        if (plan instanceof TableScan scan) {
            out = narrow(scan, references);
        } else {
            List<LogicalPlan> children = new ArrayList<>();
            boolean changed = false;
            for (LogicalPlan child : plan.children()) {
                LogicalPlan rewritten = rewrite(child, references, done);
                children.add(rewritten);
                changed |= rewritten != child;
            }
            // a union keeps its inputs whole unless all of them narrowed alike (one read JSON, say)
            out = !changed || plan instanceof Union && !sameTypes(children) ? plan : plan.withNewChildren(children);
        }
        done.put(plan, out);
        return out;
    }

    private static boolean sameTypes(List<LogicalPlan> inputs) {
        List<DataType> first = inputs.get(0).schema().fields().stream().map(Field::type).toList();
        return inputs.stream().allMatch(input -> input.schema().fields().stream().map(Field::type).toList().equals(first));
    }

    private static LogicalPlan narrow(TableScan scan, References references) {
        if (scan.source().format() != FileFormat.PARQUET) {
            return scan;
        }
        List<Field> fields = new ArrayList<>();
        boolean changed = false;
        for (Field field : scan.schema().fields()) {
            String key = SubqueryAlias.unqualified(field.name());
            List<List<String>> paths = references.paths.get(key);
            DataType type = paths == null || references.bare.contains(key) ? field.type() : narrow(field.type(), paths);
            changed |= !type.equals(field.type());
            fields.add(new Field(field.name(), type));
        }
        return changed ? new TableScan(scan.source(), scan.schema().names(), new Schema(fields)) : scan;
    }

    /** {@code type} with only the fields the paths read (all of a field some path ends at). */
    static DataType narrow(DataType type, List<List<String>> paths) {
        if (type.kind() != DataType.Kind.STRUCT || paths.stream().anyMatch(List::isEmpty)) {
            return type;
        }
        Map<Integer, List<List<String>>> byField = new TreeMap<>();
        for (List<String> path : paths) {
            int index = type.fieldIndex(path.get(0));
            if (index < 0) {
                return type; // the reference fails when typed, naming the field
            }
            byField.computeIfAbsent(index, i -> new ArrayList<>()).add(path.subList(1, path.size()));
        }
        List<Field> kept = new ArrayList<>();
        byField.forEach((index, tails) -> {
            Field field = type.fields().get(index);
            kept.add(new Field(field.name(), narrow(field.type(), tails)));
        });
        return kept.size() == type.fields().size() && kept.equals(type.fields()) ? type : DataType.struct(kept);
    }

    /** Every use of every column name in a plan: the field paths read from it, and the names also used whole. */
    private static final class References {
        final Map<String, List<List<String>>> paths = new HashMap<>();
        final Set<String> bare = new HashSet<>();

        void whole(String name) {
            bare.add(SubqueryAlias.unqualified(name));
        }

        /** Collects the plan's references; false when it holds a subquery, whose references are not followed. */
        boolean collect(LogicalPlan plan, Map<LogicalPlan, Boolean> seen) {
            if (seen.put(plan, Boolean.TRUE) != null) {
                return true;
            }
            for (Expr e : plan.expressions()) {
                if (!collect(e)) {
                    return false;
                }
            }
            if (plan instanceof Union union) {
                List<String> names = union.schema().names();
                for (LogicalPlan input : union.inputs()) {
                    for (int i = 0; i < names.size(); i++) {
                        String name = input.schema().names().get(i);
                        if (!SubqueryAlias.unqualified(name).equals(SubqueryAlias.unqualified(names.get(i)))) {
                            whole(name);
                            whole(names.get(i));
                        }
                    }
                }
            }
            for (LogicalPlan child : plan.children()) {
                if (!collect(child, seen)) {
                    return false;
                }
            }
            return true;
        }

        private boolean collect(Expr e) {
            if (e instanceof SubqueryExpr || e instanceof OuterColumn) {
                return false;
            }
            List<String> path = new ArrayList<>();
            Expr at = e;
            while (at instanceof ScalarFunction f && f.function() == ScalarFunction.Function.GET_FIELD
                    && f.args().get(1) instanceof Literal l && l.value() instanceof String field) {
                path.add(0, field);
                at = f.args().get(0);
            }
            if (!path.isEmpty() && at instanceof Column c) {
                paths.computeIfAbsent(SubqueryAlias.unqualified(c.column()), k -> new ArrayList<>()).add(path);
                return true;
            }
            if (e instanceof Column c) {
                whole(c.column());
                return true;
            }
            for (Expr child : e.children()) {
                if (!collect(child)) {
                    return false;
                }
            }
            return true;
        }
    }
}
