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

/**
 * Spark's {@code explode} (SQL's {@code UNNEST}, Hive's {@code LATERAL VIEW}): each input row
 * once per element of {@code generator}'s value, a LIST's element in one new column, a MAP's key
 * and value in two, appended to the input's columns under {@code names}. A NULL or empty value gives
 * no row, unless {@code outer}: then one row whose new columns are NULL.
 */
public record Generate(LogicalPlan input, Expr generator, boolean outer, List<String> names, Schema schema)
        implements LogicalPlan {
    /** A list expands to this many elements, for estimates. */
    private static final double ELEMENTS_PER_ROW = 4;

    public Generate {
        requireNonNull(input, "input is null");
        requireNonNull(generator, "generator is null");
        names = List.copyOf(names);
        requireNonNull(schema, "schema is null");
        if (Exprs.containsAggregate(generator) || Exprs.containsWindow(generator)) {
            throw new SluiceException("explode() cannot take an aggregate or window function: " + generator);
        }
    }

    public Generate(LogicalPlan input, Expr generator, boolean outer, List<String> names) {
        this(input, generator, outer, names, schemaOf(requireNonNull(input, "input is null").schema(), generator, names));
    }

    /** The new columns' types: a list's element, or a map's key and value; fails for any other type. */
    public static List<DataType> generatedTypes(Expr generator, Schema input) {
        DataType type = generator.type(input);
        return switch (type.kind()) {
            case LIST -> List.of(type.elementType());
            case MAP -> List.of(type.keyType(), type.valueType());
            default -> throw new SluiceException("explode() needs an ARRAY or a MAP, not " + type.sqlName() + " ("
                    + generator + ")");
        };
    }

    private static Schema schemaOf(Schema input, Expr generator, List<String> names) {
        List<DataType> types = generatedTypes(generator, input);
        if (names.size() != types.size()) {
            throw new SluiceException("explode(" + generator + ") makes " + types.size() + " column"
                    + (types.size() == 1 ? "" : "s") + ", but " + names.size() + " name" + (names.size() == 1 ? " was" : "s were")
                    + " given: " + names);
        }
        List<Field> generated = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            generated.add(new Field(names.get(i), types.get(i)));
        }
        return Join.concat(input, new Schema(generated));
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Generate(children.get(0), generator, outer, names);
    }

    @Override
    public List<Expr> expressions() {
        return List.of(generator);
    }

    @Override
    public String describe() {
        return "Generate: " + (outer ? "explode_outer(" : "explode(") + generator + ") AS " + String.join(", ", names);
    }

    @Override
    public Statistics statistics(StatisticsContext context) {
        return Statistics.unknown(schema, context.of(input).rowCount() * ELEMENTS_PER_ROW);
    }
}
