package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the columns of the DataFrames a DataFrame was built from went: for each of them (by id), its
 * column names mapped to the names of this DataFrame's columns that carry them unchanged. It is how
 * {@code df1.col("a")} finds its column after a join renamed it, or refuses a DataFrame that is not an
 * input; a DataFrame on both sides of a join (a self-join) is {@code ambiguous}. Immutable.
 */
record ColumnLineage(Map<Long, Map<String, String>> sources, Set<Long> ambiguous) {
    ColumnLineage {
        Map<Long, Map<String, String>> copy = new HashMap<>();
        sources.forEach((id, columns) -> copy.put(id, Map.copyOf(columns)));
        sources = Map.copyOf(copy);
        ambiguous = Set.copyOf(ambiguous);
    }

    /** A DataFrame that comes from no other. */
    static final ColumnLineage NONE = new ColumnLineage(Map.of(), Set.of());

    /** DataFrame {@code id}'s own columns, each itself, added to what is known. */
    ColumnLineage plus(long id, Schema schema) {
        Map<Long, Map<String, String>> out = new HashMap<>(sources);
        Map<String, String> own = new LinkedHashMap<>();
        schema.names().forEach(n -> own.put(n, n));
        out.put(id, own);
        return new ColumnLineage(out, ambiguous);
    }

    /**
     * The lineage of a DataFrame whose columns are computed by {@code exprs} over {@code input} (the
     * columns this lineage maps to): a column passed through or renamed ({@code c}, {@code c AS d})
     * stays traceable, a computed one is new; {@code extra} maps more input names to output ones.
     */
    ColumnLineage project(List<Expr> exprs, Schema input, Map<String, String> extra) {
        Map<String, String> renames = new HashMap<>(extra);
        for (Expr e : exprs) {
            Expr inner = e instanceof Alias a ? a.input() : e;
            if (inner instanceof Column c && input.indexOf(c.column()) >= 0) {
                renames.putIfAbsent(input.field(c.column()).name(), e.name());
            }
        }
        return renamed(renames);
    }

    /** This lineage with column names renamed ({@code renames}: old name to new; others unchanged). */
    ColumnLineage renamed(Map<String, String> renames) {
        Map<Long, Map<String, String>> out = new HashMap<>();
        sources.forEach((id, columns) -> {
            Map<String, String> kept = new LinkedHashMap<>();
            columns.forEach((from, to) -> {
                String now = renames.get(to);
                if (now != null) {
                    kept.put(from, now);
                }
            });
            out.put(id, kept);
        });
        return new ColumnLineage(out, ambiguous);
    }

    /** This lineage with only the columns that {@code output} still has. */
    ColumnLineage keeping(Schema output) {
        Map<String, String> identity = new HashMap<>();
        output.names().forEach(n -> identity.put(n, n));
        return renamed(identity);
    }

    /** Both sides of a join: a DataFrame found on both sides is ambiguous. */
    static ColumnLineage join(ColumnLineage left, ColumnLineage right) {
        Map<Long, Map<String, String>> out = new HashMap<>(left.sources);
        Set<Long> ambiguous = new TreeSet<>(left.ambiguous);
        ambiguous.addAll(right.ambiguous);
        right.sources.forEach((source, columns) -> {
            if (out.containsKey(source)) {
                ambiguous.add(source);
            } else {
                out.put(source, columns);
            }
        });
        return new ColumnLineage(out, ambiguous);
    }

    /** The name, in {@code schema}, of {@code column} of DataFrame {@code source}; errors name the column. */
    String resolve(long source, String column, Schema schema) {
        if (ambiguous.contains(source)) {
            throw new SluiceException("column '" + column + "' is ambiguous: its DataFrame is on both sides of a"
                    + " join; give each side an alias (df.alias(\"x\")) and refer to col(\"x." + column + "\")");
        }
        Map<String, String> columns = sources.get(source);
        if (columns == null) {
            throw new SluiceException("cannot resolve column '" + column + "': it belongs to a DataFrame this one"
                    + " is not built from; available columns: " + String.join(", ", schema.names()));
        }
        String found = columns.get(column);
        if (found == null) {
            for (Map.Entry<String, String> e : columns.entrySet()) {
                if (e.getKey().equalsIgnoreCase(column)) {
                    found = e.getValue();
                }
            }
        }
        if (found == null) {
            throw new SluiceException("cannot resolve column '" + column + "' of its DataFrame here; available"
                    + " columns: " + String.join(", ", schema.names()));
        }
        return found;
    }
}
