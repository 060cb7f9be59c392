package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Spark's {@code describe} and {@code summary}: one aggregation computing each statistic of each
 * column, then one row per statistic: a {@code summary} column naming it, then each column's value
 * as a string (NULL where the statistic does not apply, as the mean of a string column).
 */
final class StatSummary {
    private static final List<String> ALL = List.of("count", "mean", "stddev", "min", "max");

    private StatSummary() {
    }

    static DataFrame describe(DataFrame df, List<String> columns) {
        return of(df, columns, ALL);
    }

    static DataFrame summary(DataFrame df, List<String> statistics) {
        List<String> stats = statistics.isEmpty() ? ALL : statistics.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
        for (String s : stats) {
            if (!ALL.contains(s)) {
                throw new SluiceException("summary statistic '" + s + "' is not supported; supported: " + String.join(", ", ALL));
            }
        }
        return of(df, List.of(), stats);
    }

    private static DataFrame of(DataFrame df, List<String> columns, List<String> stats) {
        List<Field> fields = new ArrayList<>();
        if (columns.isEmpty()) {
            for (Field f : df.schema().fields()) {
                if (numeric(f.type()) || f.type().kind() == DataType.Kind.UTF8) {
                    fields.add(f);
                }
            }
        } else {
            columns.forEach(c -> fields.add(df.schema().field(c)));
        }
        List<Column> aggregates = new ArrayList<>();
        for (String stat : stats) {
            for (int i = 0; i < fields.size(); i++) {
                Field f = fields.get(i);
                Column c = Functions.col(f.name());
                boolean number = numeric(f.type());
                Column value = switch (stat) {
                    case "count" -> Functions.count(c);
                    case "mean" -> number ? Functions.avg(c.cast(DataType.FLOAT64)) : null;
                    case "stddev" -> number ? Functions.stddev(c.cast(DataType.FLOAT64)) : null;
                    case "min" -> Functions.min(c);
                    default -> Functions.max(c);
                };
                if (value != null) {
                    aggregates.add(value.as(stat + "_" + i));
                }
            }
        }
        if (aggregates.isEmpty()) {
            aggregates.add(Functions.countStar().as("count_all"));
        }
        DataFrame stat = df.agg(aggregates.toArray(Column[]::new));
        DataFrame out = null;
        for (String s : stats) {
            List<Column> row = new ArrayList<>();
            row.add(Functions.lit(s).as("summary"));
            for (int i = 0; i < fields.size(); i++) {
                boolean present = stat.schema().indexOf(s + "_" + i) >= 0;
                Column value = present ? Functions.col(s + "_" + i) : Functions.lit(null);
                row.add(value.cast(DataType.UTF8).as(fields.get(i).name()));
            }
            DataFrame one = stat.select(row.toArray(Column[]::new));
            out = out == null ? one : out.union(one);
        }
        return out;
    }

    private static boolean numeric(DataType type) {
        return switch (type.kind()) {
            case INT32, INT64, FLOAT64, DECIMAL -> true;
            default -> false;
        };
    }
}
