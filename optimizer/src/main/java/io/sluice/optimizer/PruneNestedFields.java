package io.sluice.optimizer;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.HigherOrderCall;
import io.sluice.logical.expr.Lambda;
import io.sluice.logical.expr.LambdaVariable;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.OuterColumn;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.plan.Generate;
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
import java.util.Locale;
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
    /** A path step into a list's elements or a map's values (a name no field has). */
    static final String ELEMENT = "\u0000[]";

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
        references.resolveGenerated();
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

    /**
     * {@code type} with only the fields the paths read (all of a field some path ends at), inside
     * lists' elements and maps' values too (a map's keys are read whole).
     */
    static DataType narrow(DataType type, List<List<String>> paths) {
        if (paths.stream().anyMatch(List::isEmpty)) {
            return type;
        }
        if (type.kind() == DataType.Kind.LIST || type.kind() == DataType.Kind.MAP) {
            if (!paths.stream().allMatch(path -> path.get(0).equals(ELEMENT))) {
                return type;
            }
            List<List<String>> tails = paths.stream().map(path -> path.subList(1, path.size())).toList();
            DataType inner = type.kind() == DataType.Kind.LIST ? type.elementType() : type.valueType();
            DataType narrowed = narrow(inner, tails);
            if (narrowed.equals(inner)) {
                return type;
            }
            return type.kind() == DataType.Kind.LIST ? DataType.list(narrowed) : DataType.map(type.keyType(), narrowed);
        }
        if (type.kind() != DataType.Kind.STRUCT) {
            return type;
        }
        Map<Integer, List<List<String>>> byField = new TreeMap<>();
        for (List<String> path : paths) {
            int index = path.get(0).equals(ELEMENT) ? -1 : type.fieldIndex(path.get(0));
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

    /**
     * Every use of every column name in a plan: the paths read from it (field names, and
     * {@link #ELEMENT} for a list's elements or a map's values), and the names also used whole. A
     * generated column ({@code explode}, {@code posexplode}, {@code inline}) and a lambda parameter
     * over a column's elements read through that column: their paths count as its element's.
     */
    private static final class References {
        final Map<String, List<List<String>>> paths = new HashMap<>();
        final Set<String> bare = new HashSet<>();
        /** A generated column's name to the path (column first) whose elements it holds. */
        private final Map<String, List<String>> generated = new HashMap<>();
        /** The generated columns that are the fields of inlined structs. */
        private final Set<String> inlined = new HashSet<>();

        void whole(String name) {
            bare.add(SubqueryAlias.unqualified(name));
        }

        /** Collects the plan's references; false when it holds a subquery, whose references are not followed. */
        boolean collect(LogicalPlan plan, Map<LogicalPlan, Boolean> seen) {
            if (seen.put(plan, Boolean.TRUE) != null) {
                return true;
            }
            if (plan instanceof Generate generate && generated(generate)) {
                // the generator's column is read through the generated columns
            } else {
                for (Expr e : plan.expressions()) {
                    if (!collect(e, Map.of())) {
                        return false;
                    }
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

        /** Registers a generator over a column path as the source of its new columns; false when it is not one. */
        private boolean generated(Generate generate) {
            List<String> source = container(generate.generator(), Map.of());
            if (source == null) {
                return false;
            }
            DataType type;
            try {
                type = generate.generator().type(generate.input().schema());
            } catch (RuntimeException e) {
                return false;
            }
            List<String> names = generate.names();
            int at = generate.function() == Generate.Function.POSEXPLODE ? 1 : 0;
            List<String> element = append(source, ELEMENT);
            if (generate.function() == Generate.Function.INLINE) {
                if (type.kind() != DataType.Kind.LIST || type.elementType().kind() != DataType.Kind.STRUCT
                        || type.elementType().fields().size() != names.size()) {
                    return false;
                }
                for (int i = 0; i < names.size(); i++) {
                    String name = SubqueryAlias.unqualified(names.get(i));
                    generated.put(name, append(element, type.elementType().fields().get(i).name()));
                    inlined.add(name);
                }
            } else if (type.kind() == DataType.Kind.LIST && names.size() == at + 1) {
                generated.put(SubqueryAlias.unqualified(names.get(at)), element);
            } else if (type.kind() == DataType.Kind.MAP && names.size() == at + 2) {
                generated.put(SubqueryAlias.unqualified(names.get(at + 1)), element); // a map's keys are read whole
            } else {
                return false;
            }
            collectIndexes(generate.generator(), Map.of());
            return true;
        }

        /** Moves the generated columns' references onto the columns they come from (chains included). */
        void resolveGenerated() {
            // inline makes a column of every field, so each field stays (a field used by none whole)
            inlined.stream().filter(name -> !paths.containsKey(name)).forEach(bare::add);
            for (int round = 0; round <= generated.size(); round++) {
                boolean moved = false;
                for (Map.Entry<String, List<String>> g : generated.entrySet()) {
                    List<List<String>> read = paths.remove(g.getKey());
                    if (read != null) {
                        read.forEach(tail -> add(concat(g.getValue(), tail)));
                        moved = true;
                    }
                    if (bare.remove(g.getKey())) {
                        add(g.getValue());
                        moved = true;
                    }
                }
                if (!moved) {
                    break;
                }
            }
            generated.keySet().forEach(bare::add); // a scan column of the same name is kept whole
        }

        private boolean collect(Expr e, Map<String, List<String>> scope) {
            if (e instanceof SubqueryExpr || e instanceof OuterColumn) {
                return false;
            }
            List<String> path = path(e, scope);
            if (path != null) {
                add(path);
                return collectIndexes(e, scope);
            }
            if (e instanceof Column c) {
                whole(c.column());
                return true;
            }
            if (e instanceof ScalarFunction f && f.function() == ScalarFunction.Function.SIZE
                    && f.args().get(0) instanceof Column) {
                return true; // a size reads the offsets, which every leaf of the column carries
            }
            if (e instanceof HigherOrderCall call && overElements(call)) {
                return collectLambdas(call, scope);
            }
            if (e instanceof Lambda lambda) {
                return collect(lambda.body(), without(scope, lambda.parameters()));
            }
            for (Expr child : e.children()) {
                if (!collect(child, scope)) {
                    return false;
                }
            }
            return true;
        }

        /** Whether a higher-order function's value holds none of its containers' elements whole (a filter does). */
        private static boolean overElements(HigherOrderCall call) {
            return switch (call.function()) {
                case TRANSFORM, EXISTS, FORALL, AGGREGATE, ZIP_WITH, TRANSFORM_VALUES -> true;
                case FILTER, MAP_FILTER, TRANSFORM_KEYS -> false;
            };
        }

        /** A higher-order call whose lambdas read the containers' elements through their parameters. */
        private boolean collectLambdas(HigherOrderCall call, Map<String, List<String>> scope) {
            int containers = call.function().containers();
            List<List<String>> elements = new ArrayList<>();
            for (int i = 0; i < containers; i++) {
                List<String> container = container(call.args().get(i), scope);
                if (container == null) {
                    if (!collect(call.args().get(i), scope)) {
                        return false;
                    }
                    elements.add(null);
                } else {
                    if (!collectIndexes(call.args().get(i), scope)) {
                        return false;
                    }
                    elements.add(append(container, ELEMENT));
                }
            }
            for (int i = containers; i < call.args().size(); i++) {
                if (!(call.args().get(i) instanceof Lambda lambda)) {
                    if (!collect(call.args().get(i), scope)) {
                        return false;
                    }
                    continue;
                }
                Map<String, List<String>> inner = without(scope, lambda.parameters());
                List<String> parameters = lambda.parameters();
                switch (call.function()) {
                    case TRANSFORM, EXISTS, FORALL -> bind(inner, parameters, 0, elements.get(0));
                    case AGGREGATE -> {
                        if (i == 2) {
                            bind(inner, parameters, 1, elements.get(0));
                        }
                    }
                    case ZIP_WITH -> {
                        bind(inner, parameters, 0, elements.get(0));
                        bind(inner, parameters, 1, elements.get(1));
                    }
                    case TRANSFORM_VALUES -> bind(inner, parameters, 1, elements.get(0));
                    default -> throw new IllegalStateException("not over elements: " + call.function());
                }
                if (!collect(lambda.body(), inner)) {
                    return false;
                }
            }
            return true;
        }

        private static void bind(Map<String, List<String>> scope, List<String> parameters, int index, List<String> path) {
            if (path != null && index < parameters.size()) {
                scope.put(parameters.get(index).toLowerCase(Locale.ROOT), path);
            }
        }

        private static Map<String, List<String>> without(Map<String, List<String>> scope, List<String> parameters) {
            Map<String, List<String>> out = new HashMap<>(scope);
            parameters.forEach(p -> out.remove(p.toLowerCase(Locale.ROOT)));
            return out;
        }

        /** The path (column first) of a container: a column itself or a path to it; null for a computed value. */
        private static List<String> container(Expr e, Map<String, List<String>> scope) {
            return e instanceof Column c ? List.of(SubqueryAlias.unqualified(c.column())) : path(e, scope);
        }

        /**
         * The path (column first) a chain of field, element and map-value accesses reads from a column
         * or from a lambda parameter over a column's elements (a parameter alone too); null when
         * {@code e} is no such chain or a bare column.
         */
        private static List<String> path(Expr e, Map<String, List<String>> scope) {
            List<String> steps = new ArrayList<>();
            Expr at = e;
            while (at instanceof ScalarFunction f) {
                if (f.function() == ScalarFunction.Function.GET_FIELD && f.args().get(1) instanceof Literal l
                        && l.value() instanceof String field) {
                    steps.add(0, field);
                } else if (f.function() == ScalarFunction.Function.ITEM || f.function() == ScalarFunction.Function.ELEMENT_AT) {
                    steps.add(0, ELEMENT);
                } else {
                    break;
                }
                at = f.args().get(0);
            }
            if (at instanceof LambdaVariable v && scope.containsKey(v.name().toLowerCase(Locale.ROOT))) {
                return concat(scope.get(v.name().toLowerCase(Locale.ROOT)), steps);
            }
            if (!steps.isEmpty() && at instanceof Column c) {
                return concat(List.of(SubqueryAlias.unqualified(c.column())), steps);
            }
            return null;
        }

        /** Collects the index and key arguments of the element accesses of a path chain. */
        private boolean collectIndexes(Expr e, Map<String, List<String>> scope) {
            Expr at = e;
            while (at instanceof ScalarFunction f && f.function().isNested() && !f.args().isEmpty()) {
                if (f.function() == ScalarFunction.Function.ITEM || f.function() == ScalarFunction.Function.ELEMENT_AT) {
                    if (!collect(f.args().get(1), scope)) {
                        return false;
                    }
                }
                at = f.args().get(0);
            }
            return true;
        }

        private void add(List<String> path) {
            paths.computeIfAbsent(path.get(0), k -> new ArrayList<>()).add(path.subList(1, path.size()));
        }

        private static List<String> append(List<String> path, String step) {
            return concat(path, List.of(step));
        }

        private static List<String> concat(List<String> a, List<String> b) {
            List<String> out = new ArrayList<>(a);
            out.addAll(b);
            return List.copyOf(out);
        }
    }
}
