package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlIdentifier;

/**
 * The relations a query's FROM clause reads and how names refer to their columns. Resolves every
 * column reference to the exact name of a column of the FROM plan's output, so {@code K},
 * {@code t.k} and {@code k} become the same {@link Column} and equal expressions compare equal.
 *
 * <p>A query over one table reads it unwrapped, under its own column names; the table name and its
 * alias both qualify. Otherwise each relation is a {@link SubqueryAlias} whose columns are
 * {@code q.c}: {@code q.c} resolves within relation {@code q} and a bare {@code c} must name a column
 * of exactly one relation, else it is ambiguous. A column of {@code JOIN ... USING (c)} is the one
 * exception: a bare {@code c} then means the merged column (the left one for inner and left joins,
 * the right one for right joins, the first non-NULL of the two for full joins), and {@code *} shows it
 * once.
 */
final class TableScope {
    long id() {
        return id;
    }

    /** One relation: the names that qualify it, and per column its unqualified and its real name. */
    record Relation(List<String> qualifiers, List<String> shortNames, List<String> fieldNames, String description) {
        Relation {
            qualifiers = List.copyOf(qualifiers);
            shortNames = List.copyOf(shortNames);
            fieldNames = List.copyOf(fieldNames);
            requireNonNull(description, "description is null");
        }

        boolean answersTo(String qualifier) {
            return qualifiers.stream().anyMatch(q -> q.equalsIgnoreCase(qualifier));
        }
    }

    /** A column of {@code *}: its expression, the unqualified name and the real (maybe qualified) one. */
    record StarColumn(Expr expr, String shortName, String fieldName) {
    }

    /** A merged {@code USING} column: its expression and the real column whose place it takes in {@code *}. */
    private record Merged(Expr expr, String anchor) {
    }

    private static final java.util.concurrent.atomic.AtomicLong NEXT_ID = new java.util.concurrent.atomic.AtomicLong();

    /** Names this scope in correlated references ({@link io.sluice.logical.expr.OuterColumn#scope}); unique in the JVM. */
    private final long id = NEXT_ID.incrementAndGet();
    private final Schema schema;
    private final List<Relation> relations;
    private final boolean single;
    private final Map<String, Merged> merged; // lower-cased unqualified name -> merged USING column
    private final Set<String> hidden; // real names of USING columns that * shows once, as the merged column

    private TableScope(Schema schema, List<Relation> relations, boolean single, Map<String, Merged> merged,
            Set<String> hidden) {
        this.schema = requireNonNull(schema, "schema is null");
        this.relations = List.copyOf(relations);
        this.single = single;
        this.merged = Map.copyOf(merged);
        this.hidden = Set.copyOf(hidden);
    }

    /** The only table of a query, read under its own column names (qualified by its name or its alias). */
    static TableScope table(TableSource table, String alias) {
        List<String> qualifiers = new ArrayList<>();
        if (alias != null) {
            qualifiers.add(alias);
        }
        qualifiers.add(table.name());
        List<String> names = table.schema().names();
        String description = "table '" + table.name() + "'" + (alias == null ? "" : " as '" + alias + "'");
        return new TableScope(table.schema(), List.of(new Relation(qualifiers, names, names, description)), true,
                Map.of(), Set.of());
    }

    /** Unqualified columns of an intermediate result, such as a union's for its ORDER BY. */
    static TableScope result(Schema schema, String description) {
        List<String> names = schema.names();
        return new TableScope(schema, List.of(new Relation(List.of(), names, names, description)), true, Map.of(),
                Set.of());
    }

    /** A relation wrapped in {@code SubqueryAlias(.., qualifier)}; {@code schema} is that node's. */
    static TableScope relation(Schema schema, String qualifier, String description) {
        List<String> shortNames = new ArrayList<>();
        for (String name : schema.names()) {
            shortNames.add(SubqueryAlias.unqualified(name));
        }
        return new TableScope(schema, List.of(new Relation(List.of(qualifier), shortNames, schema.names(), description)),
                false, Map.of(), Set.of());
    }

    /** Both scopes side by side, as a join outputs them; {@code using} merges the named columns. */
    static TableScope join(TableScope left, TableScope right, List<UsingColumn> using) {
        for (Relation r : right.relations) {
            for (String q : r.qualifiers()) {
                for (Relation l : left.relations) {
                    if (l.answersTo(q)) {
                        throw new SluiceException("table name or alias '" + q + "' appears twice in FROM;"
                                + " give one of them a different alias");
                    }
                }
            }
        }
        List<Relation> relations = new ArrayList<>(left.relations);
        relations.addAll(right.relations);
        Map<String, Merged> merged = new LinkedHashMap<>(left.merged);
        merged.putAll(right.merged);
        Set<String> hidden = new LinkedHashSet<>(left.hidden);
        hidden.addAll(right.hidden);
        for (UsingColumn u : using) {
            String key = u.name().toLowerCase(Locale.ROOT);
            Merged previous = left.merged.get(key);
            String anchor = previous != null ? previous.anchor() : u.leftColumn();
            merged.put(key, new Merged(u.merged(), anchor));
            hidden.add(u.rightColumn());
        }
        return new TableScope(Join.concat(left.schema, right.schema), relations, false, merged, hidden);
    }

    /**
     * A column named in {@code JOIN ... USING}: the real names of its left and right columns and the
     * expression a bare reference to it means.
     */
    record UsingColumn(String name, String leftColumn, String rightColumn, Expr merged) {
    }

    Schema schema() {
        return schema;
    }

    /** Whether {@code name}, unqualified, names a column here (case-insensitively). */
    boolean hasColumn(String name) {
        if (merged.containsKey(name.toLowerCase(Locale.ROOT))) {
            return true;
        }
        for (Relation r : relations) {
            for (String s : r.shortNames()) {
                if (s.equalsIgnoreCase(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code id} ({@code c} or {@code q.c}) names a column here; a subquery's translator asks
     * this before trying the enclosing query's scope for a correlated reference.
     */
    /**
     * Whether {@code id} resolves here without falling back to the name of an aliased table: in
     * SQL an alias hides the name ({@code t.k} in {@code FROM t AS t3} is not t3's column), and a
     * subquery's {@code t.k} then belongs to an enclosing query that reads {@code t}. We still
     * accept the hidden name when no enclosing query has it.
     */
    boolean canResolveStrictly(SqlIdentifier id) {
        if (id.names.size() == 2 && single && relations.size() == 1) {
            List<String> qualifiers = relations.get(0).qualifiers();
            if (qualifiers.size() == 2 && qualifiers.get(1).equalsIgnoreCase(id.names.get(0))
                    && !qualifiers.get(0).equalsIgnoreCase(id.names.get(0))) {
                return false;
            }
        }
        return canResolve(id);
    }

    boolean canResolve(SqlIdentifier id) {
        if (id.names.size() == 1) {
            return hasColumn(id.names.get(0));
        }
        if (id.names.size() == 2) {
            for (Relation r : relations) {
                if (r.answersTo(id.names.get(0))) {
                    return find(r.shortNames(), id.names.get(1)) >= 0;
                }
            }
        }
        return false;
    }

    /** The column {@code id} names; throws naming the column and listing the available ones. */
    Expr column(SqlIdentifier id) {
        if (id.names.size() == 1) {
            return unqualified(id.names.get(0));
        }
        if (id.names.size() == 2) {
            Relation r = relation(id.names.get(0), id.toString());
            String name = id.names.get(1);
            int index = find(r.shortNames(), name);
            if (index < 0) {
                if (single && schema.indexOf(name) >= 0) {
                    return new Column(schema.field(name).name());
                }
                throw new SluiceException("unknown column '" + id + "';"
                        + NameSuggestions.didYouMean(name, r.shortNames()) + " available columns: "
                        + String.join(", ", r.fieldNames()));
            }
            return new Column(r.fieldNames().get(index));
        }
        throw SqlErrors.unsupported("compound column name '" + String.join(".", id.names) + "'");
    }

    /** The column a bare {@code name} refers to: a merged USING column, else a column of one relation. */
    Expr unqualified(String name) {
        Merged m = merged.get(name.toLowerCase(Locale.ROOT));
        if (m != null) {
            return m.expr();
        }
        List<String> exact = new ArrayList<>();
        List<String> folded = new ArrayList<>();
        for (Relation r : relations) {
            for (int i = 0; i < r.shortNames().size(); i++) {
                String s = r.shortNames().get(i);
                if (s.equals(name)) {
                    exact.add(r.fieldNames().get(i));
                }
                if (s.equalsIgnoreCase(name)) {
                    folded.add(r.fieldNames().get(i));
                }
            }
        }
        List<String> found = exact.size() == 1 ? exact : folded;
        if (found.size() > 1) {
            throw new SluiceException("column reference '" + name + "' is ambiguous: it could be "
                    + String.join(" or ", found) + "; qualify it with a table name or alias");
        }
        if (found.isEmpty()) {
            List<String> known = new ArrayList<>(merged.keySet());
            relations.forEach(r -> known.addAll(r.shortNames()));
            throw new SluiceException("unknown column '" + name + "';" + NameSuggestions.didYouMean(name, known)
                    + " available columns: " + String.join(", ", schema.names()));
        }
        return new Column(found.get(0));
    }

    /** The columns of {@code *} (every relation, USING columns once) or {@code q.*} (relation q). */
    List<StarColumn> allColumns(SqlIdentifier star) {
        List<StarColumn> out = new ArrayList<>();
        if (star.names.size() == 2) {
            Relation r = relation(star.names.get(0), star.toString());
            for (int i = 0; i < r.fieldNames().size(); i++) {
                out.add(new StarColumn(new Column(r.fieldNames().get(i)), r.shortNames().get(i), r.fieldNames().get(i)));
            }
            return out;
        }
        if (star.names.size() > 2) {
            throw SqlErrors.unsupported("compound name '" + star + "'");
        }
        Map<String, Merged> byAnchor = new LinkedHashMap<>();
        merged.forEach((name, m) -> byAnchor.put(m.anchor(), m));
        for (Relation r : relations) {
            for (int i = 0; i < r.fieldNames().size(); i++) {
                String field = r.fieldNames().get(i);
                Merged m = byAnchor.get(field);
                if (m != null) {
                    out.add(new StarColumn(m.expr(), r.shortNames().get(i), r.shortNames().get(i)));
                } else if (!hidden.contains(field)) {
                    out.add(new StarColumn(new Column(field), r.shortNames().get(i), field));
                }
            }
        }
        return out;
    }

    /** The relation a qualifier names; anything else is a typo, reported with what FROM reads. */
    private Relation relation(String qualifier, String reference) {
        for (Relation r : relations) {
            if (r.answersTo(qualifier)) {
                return r;
            }
        }
        List<String> reads = new ArrayList<>();
        relations.forEach(r -> reads.add(r.description()));
        List<String> qualifiers = new ArrayList<>();
        relations.forEach(r -> qualifiers.addAll(r.qualifiers()));
        throw new SluiceException("unknown table or alias '" + qualifier + "' in '" + reference + "';"
                + NameSuggestions.didYouMean(qualifier, qualifiers) + " the query reads "
                + String.join(", ", reads));
    }

    private static int find(List<String> names, String name) {
        int index = names.indexOf(name);
        if (index >= 0) {
            return index;
        }
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
