package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Spark's generators (SQL's {@code UNNEST}, Hive's {@code LATERAL VIEW}): each input row once per
 * element of {@code generator}'s value, the new columns appended to the input's under {@code names}.
 * {@code explode}: a LIST's element in one column, a MAP's key and value in two; {@code posexplode}:
 * the same after the element's 0-based position; {@code inline}: the fields of a LIST of STRUCTs,
 * one column each (a NULL element gives a row of NULLs). A NULL or empty value gives no row, unless
 * {@code outer}: then one row whose new columns are NULL.
 */
public record Generate(LogicalPlan input, Function function, Expr generator, boolean outer, List<String> names,
        Schema schema) implements LogicalPlan {
    /** Which generator: what the new columns are. */
    public enum Function {
        EXPLODE, POSEXPLODE, INLINE;

        /** The generator a Spark function name calls ({@code explode}, {@code posexplode_outer}, ...), or null. */
        public static Function named(String name) {
            String base = name.toLowerCase(Locale.ROOT);
            base = base.endsWith("_outer") ? base.substring(0, base.length() - "_outer".length()) : base;
            for (Function f : values()) {
                if (f.sqlName().equals(base)) {
                    return f;
                }
            }
            return null;
        }

        /** Whether a Spark function name is the outer form ({@code explode_outer}, ...). */
        public static boolean isOuter(String name) {
            return named(name) != null && name.toLowerCase(Locale.ROOT).endsWith("_outer");
        }

        public String sqlName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public String sqlName(boolean outer) {
            return sqlName() + (outer ? "_outer" : "");
        }
    }

    /** A list expands to this many elements, for estimates. */
    private static final double ELEMENTS_PER_ROW = 4;

    public Generate {
        requireNonNull(input, "input is null");
        requireNonNull(function, "function is null");
        requireNonNull(generator, "generator is null");
        names = List.copyOf(names);
        requireNonNull(schema, "schema is null");
        if (Exprs.containsAggregate(generator) || Exprs.containsWindow(generator)) {
            throw new SluiceException(function.sqlName() + "() cannot take an aggregate or window function: " + generator);
        }
    }

    /** An {@code explode}. */
    public Generate(LogicalPlan input, Expr generator, boolean outer, List<String> names) {
        this(input, Function.EXPLODE, generator, outer, names);
    }

    public Generate(LogicalPlan input, Function function, Expr generator, boolean outer, List<String> names) {
        this(input, function, generator, outer, names,
                schemaOf(requireNonNull(input, "input is null").schema(), function, generator, names));
    }

    /** The new columns with Spark's names ({@code pos}, {@code col}, {@code key}, {@code value}, an inlined struct's fields). */
    public static List<Field> generatedFields(Function function, Expr generator, Schema input) {
        DataType type = generator.type(input);
        List<Field> fields = new ArrayList<>();
        if (function == Function.POSEXPLODE) {
            fields.add(new Field("pos", DataType.INT32));
        }
        if (function == Function.INLINE) {
            if (type.kind() != DataType.Kind.LIST || type.elementType().kind() != DataType.Kind.STRUCT) {
                throw new SluiceException("inline() needs an ARRAY of STRUCTs, not " + type.sqlName() + " (" + generator + ")");
            }
            return type.elementType().fields();
        }
        switch (type.kind()) {
            case LIST -> fields.add(new Field("col", type.elementType()));
            case MAP -> {
                fields.add(new Field("key", type.keyType()));
                fields.add(new Field("value", type.valueType()));
            }
            default -> throw new SluiceException(function.sqlName() + "() needs an ARRAY or a MAP, not " + type.sqlName()
                    + " (" + generator + ")");
        }
        return fields;
    }

    /** The new columns' types: a list's element, or a map's key and value; fails for any other type. */
    public static List<DataType> generatedTypes(Expr generator, Schema input) {
        return generatedFields(Function.EXPLODE, generator, input).stream().map(Field::type).toList();
    }

    private static Schema schemaOf(Schema input, Function function, Expr generator, List<String> names) {
        List<Field> made = generatedFields(function, generator, input);
        if (names.size() != made.size()) {
            throw new SluiceException(function.sqlName() + "(" + generator + ") makes " + made.size() + " column"
                    + (made.size() == 1 ? "" : "s") + ", but " + names.size() + " name" + (names.size() == 1 ? " was" : "s were")
                    + " given: " + names);
        }
        List<Field> generated = new ArrayList<>();
        for (int i = 0; i < made.size(); i++) {
            generated.add(new Field(names.get(i), made.get(i).type()));
        }
        return Join.concat(input, new Schema(generated));
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Generate(children.get(0), function, generator, outer, names);
    }

    @Override
    public List<Expr> expressions() {
        return List.of(generator);
    }

    @Override
    public String describe() {
        return "Generate: " + function.sqlName(outer) + "(" + generator + ") AS " + String.join(", ", names);
    }

    @Override
    public Statistics statistics(StatisticsContext context) {
        return Statistics.unknown(schema, context.of(input).rowCount() * ELEMENTS_PER_ROW);
    }
}
