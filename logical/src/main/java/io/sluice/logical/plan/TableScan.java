package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;

/** Reads a table; {@code projection} lists the columns read, in output order (all when null). */
public record TableScan(TableSource source, List<String> projection, Schema schema) implements LogicalPlan {
    public TableScan {
        requireNonNull(schema, "schema is null");
        requireNonNull(source, "source is null");
        if (projection != null) {
            projection = List.copyOf(projection);
            for (String column : projection) {
                source.schema().field(column);
            }
        }
    }

    public TableScan(TableSource source) {
        this(source, null);
    }

    /** Derives the schema once, here (which also checks that every projected column exists). */
    public TableScan(TableSource source, List<String> projection) {
        this(source, projection, schemaOf(requireNonNull(source, "source is null"), projection));
    }

    private static Schema schemaOf(TableSource source, List<String> projection) {
        if (projection == null) {
            return source.schema();
        }
        List<Field> fields = new ArrayList<>();
        for (String column : projection) {
            fields.add(source.schema().field(column));
        }
        return new Schema(fields);
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of();
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return this;
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "TableScan: " + source.name() + (projection == null ? "" : " projection=" + projection)
                + narrowed(schema, source.schema());
    }

    /**
     * The columns of {@code schema} whose STRUCT type is narrower than the table's (only some of
     * its fields are read), as {@code " read_schema=[s: STRUCT<a: BIGINT>]"}; empty when none is.
     */
    public static String narrowed(Schema schema, Schema table) {
        List<String> narrowed = new ArrayList<>();
        for (Field field : schema.fields()) {
            int index = table.indexOf(field.name());
            if (index >= 0 && !table.field(index).type().equals(field.type())) {
                narrowed.add(field.name() + ": " + field.type().sqlName());
            }
        }
        return narrowed.isEmpty() ? "" : " read_schema=" + narrowed;
    }

    /** The table's statistics, narrowed to the columns read. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        Statistics table = context.table(source);
        if (projection == null || table.columns().size() != source.schema().size()) {
            return table.columns().size() == source.schema().size() ? table
                    : Statistics.unknown(schema(), table.rowCount());
        }
        List<ColumnStatistics> columns = new ArrayList<>(projection.size());
        for (String column : projection) {
            columns.add(table.column(source.schema().indexOf(column)));
        }
        return Statistics.of(table.rows(), columns);
    }
}
