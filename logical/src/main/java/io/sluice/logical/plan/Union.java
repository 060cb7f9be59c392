package io.sluice.logical.plan;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code UNION ALL}: the rows of every input, duplicates kept, in no promised order. Column i of the
 * output is column i of each input; it takes the first input's name and the type all inputs' types
 * widen to ({@link TypeRules#commonType}).
 *
 * <p>Guarantees, checked here: at least two inputs, all with the same column count and pairwise
 * compatible types. {@link #coerced} builds a union whose inputs already have the output types, so
 * that an operator only concatenates; the SQL front end always builds unions that way.
 */
public record Union(List<LogicalPlan> inputs) implements LogicalPlan {
    public Union {
        inputs = List.copyOf(inputs);
        if (inputs.size() < 2) {
            throw new IllegalArgumentException("a union needs at least two inputs, not " + inputs.size());
        }
        outputSchema(inputs);
    }

    /** A union whose inputs are cast, where needed, to the output column types. */
    public static Union coerced(List<LogicalPlan> inputs) {
        Schema out = outputSchema(List.copyOf(inputs));
        List<LogicalPlan> cast = new ArrayList<>(inputs.size());
        for (LogicalPlan input : inputs) {
            Schema schema = input.schema();
            List<Expr> exprs = new ArrayList<>(schema.size());
            boolean changed = false;
            for (int i = 0; i < schema.size(); i++) {
                Field f = schema.field(i);
                Expr e = new Column(f.name());
                if (!f.type().equals(out.field(i).type())) {
                    e = new Alias(new Cast(e, out.field(i).type()), f.name());
                    changed = true;
                }
                exprs.add(e);
            }
            cast.add(changed ? new Projection(input, exprs) : input);
        }
        return new Union(cast);
    }

    /**
     * The inputs' common schema. A union's schema is not stored but derived, so an input read more
     * than once (the same plan on both sides, as a WITH query unioned with itself) is asked once:
     * a chain of such unions costs its length, not 2^length.
     */
    private static Schema outputSchema(List<LogicalPlan> inputs) {
        Map<LogicalPlan, Schema> asked = new IdentityHashMap<>();
        Schema first = asked.computeIfAbsent(inputs.get(0), LogicalPlan::schema);
        List<DataType> types = new ArrayList<>();
        first.fields().forEach(f -> types.add(f.type()));
        for (int n = 1; n < inputs.size(); n++) {
            Schema s = asked.computeIfAbsent(inputs.get(n), LogicalPlan::schema);
            if (s.size() != first.size()) {
                throw new SluiceException("UNION inputs must have the same number of columns: input 1 has "
                        + first.size() + ", input " + (n + 1) + " has " + s.size());
            }
            for (int i = 0; i < s.size(); i++) {
                DataType common = TypeRules.commonType(types.get(i), s.field(i).type());
                if (common == null) {
                    throw new SluiceException("UNION column " + (i + 1) + " ('" + first.field(i).name()
                            + "') has incompatible types " + types.get(i) + " and " + s.field(i).type()
                            + " (input " + (n + 1) + ")");
                }
                types.set(i, common);
            }
        }
        List<Field> fields = new ArrayList<>(first.size());
        for (int i = 0; i < first.size(); i++) {
            fields.add(new Field(first.field(i).name(), types.get(i)));
        }
        return new Schema(fields);
    }

    @Override
    public Schema schema() {
        return outputSchema(inputs);
    }

    @Override
    public List<LogicalPlan> children() {
        return inputs;
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Union(children);
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "Union: all";
    }

    /** The inputs' rows added up; per column, distinct and NULL counts added up (at best inexact). */
    @Override
    public Statistics statistics(StatisticsContext context) {
        double rows = 0;
        boolean exact = true;
        List<Statistics> in = new ArrayList<>(inputs.size());
        for (LogicalPlan input : inputs) {
            Statistics s = context.of(input);
            in.add(s);
            rows += s.rowCount();
            exact &= s.rows().precision() == Estimate.Precision.EXACT;
        }
        List<ColumnStatistics> columns = new ArrayList<>();
        Schema schema = schema();
        for (int i = 0; i < schema.size(); i++) {
            double distinct = 0;
            double nulls = 0;
            double width = 0;
            boolean distinctKnown = true;
            boolean nullsKnown = true;
            for (Statistics s : in) {
                ColumnStatistics c = s.column(i);
                distinctKnown &= c.distinctCount().isKnown();
                nullsKnown &= c.nullCount().isKnown();
                distinct += c.distinctCount().orElse(0);
                nulls += c.nullCount().orElse(0);
                width = Math.max(width, c.averageWidth());
            }
            columns.add(new ColumnStatistics(distinctKnown ? Estimate.inexact(distinct) : Estimate.ABSENT,
                    nullsKnown ? Estimate.inexact(nulls) : Estimate.ABSENT, null, null, Estimate.Precision.ABSENT, width));
        }
        return Statistics.of(exact ? Estimate.exact(rows) : Estimate.inexact(rows), columns);
    }
}
