package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.SubqueryAlias;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The DataFrame's column reshaping (add, replace, rename, drop, rename all), each a projection over
 * the DataFrame through {@link DataFrame#select}, so that columns stay traceable by their DataFrame.
 * Names match ignoring case; names that are not columns are ignored where Spark ignores them.
 */
final class ColumnEdits {
    private ColumnEdits() {
    }

    /** Every column, plus the given ones (each replacing a column of its name, in its place), in map order. */
    static DataFrame withColumns(DataFrame df, Map<String, Column> columns) {
        Map<String, Column> remaining = new LinkedHashMap<>(columns);
        List<Column> out = new ArrayList<>();
        for (String existing : df.schema().names()) {
            String replaced = remaining.keySet().stream().filter(existing::equalsIgnoreCase).findFirst().orElse(null);
            out.add(replaced == null ? Functions.col(existing) : remaining.remove(replaced).as(replaced));
        }
        remaining.forEach((n, c) -> out.add(c.as(n)));
        return df.select(out.toArray(Column[]::new));
    }

    /** Columns renamed, old name to new; names that are not columns are ignored, as Spark does. */
    static DataFrame withColumnsRenamed(DataFrame df, Map<String, String> renames) {
        List<Column> out = new ArrayList<>();
        boolean any = false;
        for (String existing : df.schema().names()) {
            String to = null;
            for (Map.Entry<String, String> r : renames.entrySet()) {
                if (r.getKey().equalsIgnoreCase(existing)) {
                    to = r.getValue();
                }
            }
            any |= to != null;
            out.add(to == null ? Functions.col(existing) : Functions.col(existing).as(to));
        }
        return any ? df.select(out.toArray(Column[]::new)) : df;
    }

    /** Every column but the named ones; names that are not columns are ignored, as Spark does. */
    static DataFrame drop(DataFrame df, String... columns) {
        List<Column> out = new ArrayList<>();
        for (String existing : df.schema().names()) {
            boolean dropped = Arrays.stream(columns).anyMatch(c -> c.equalsIgnoreCase(existing)
                    || c.equalsIgnoreCase(SubqueryAlias.unqualified(existing)));
            if (!dropped) {
                out.add(Functions.col(existing));
            }
        }
        if (out.isEmpty()) {
            throw new SluiceException("drop(" + String.join(", ", columns) + ") would leave no columns");
        }
        return out.size() == df.schema().size() ? df : df.select(out.toArray(Column[]::new));
    }

    /** Every column but the given ones ({@code df2.col("a")} after a join drops that side's {@code a}). */
    static DataFrame drop(DataFrame df, Column... columns) {
        List<String> names = new ArrayList<>();
        for (Column c : columns) {
            if (df.resolve(c.expr()) instanceof io.sluice.logical.expr.Column ref) {
                names.add(df.schema().field(ref.column()).name());
            }
        }
        List<Column> out = new ArrayList<>();
        for (String existing : df.schema().names()) {
            if (!names.contains(existing)) {
                out.add(Functions.col(existing));
            }
        }
        return out.size() == df.schema().size() ? df : df.select(out.toArray(Column[]::new));
    }

    /** The same rows with the columns renamed, by position. */
    static DataFrame toDF(DataFrame df, String... names) {
        List<String> existing = df.schema().names();
        if (names.length != existing.size()) {
            throw new SluiceException("toDF() got " + names.length + " names for " + existing.size() + " columns ("
                    + String.join(", ", existing) + ")");
        }
        List<Column> out = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            out.add(Functions.col(existing.get(i)).as(names[i]));
        }
        return df.select(out.toArray(Column[]::new));
    }
}
