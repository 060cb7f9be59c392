package io.sluice.sql;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The catalog statements that answer with rows ({@code SHOW TABLES}, {@code SHOW DATABASES},
 * {@code SHOW CREATE TABLE}, {@code DESCRIBE [EXTENDED]}), planned as constant rows read from the
 * catalog when the statement is parsed. Stateless.
 */
final class CatalogQueries {
    private CatalogQueries() {
    }

    /** One row per table and view of the database (temporary ones too, for the current database): name and kind. */
    static LogicalPlan showTables(DdlSyntax.ShowTables show, Catalog catalog) {
        List<List<Expr>> rows = new ArrayList<>();
        if (catalog instanceof InMemoryCatalog stored) {
            String database = show.database() == null ? stored.currentDatabase() : show.database();
            for (InMemoryCatalog.CatalogEntry e : stored.entries(database)) {
                if (matches(show.pattern(), e.name())) {
                    rows.add(List.of(Literal.of(e.name()), Literal.of(e.kind())));
                }
            }
        } else {
            catalog.tableNames().forEach(n -> rows.add(List.of(Literal.of(n), Literal.of("table"))));
            catalog.viewNames().forEach(n -> rows.add(List.of(Literal.of(n), Literal.of("view"))));
        }
        return QueryTranslator.constantRows(List.of("name", "kind"), rows);
    }

    static LogicalPlan showDatabases(DdlSyntax.ShowDatabases show, InMemoryCatalog catalog) {
        List<List<Expr>> rows = new ArrayList<>();
        catalog.databaseNames().stream().filter(n -> matches(show.pattern(), n)).forEach(n -> rows.add(List.of(Literal.of(n))));
        return QueryTranslator.constantRows(List.of("name"), rows);
    }

    static LogicalPlan showCreateTable(CatalogTable table) {
        return QueryTranslator.constantRows(List.of("createtab_stmt"), List.of(List.of(Literal.of(table.createSql()))));
    }

    /**
     * One row per column (name and type; with {@code EXTENDED} its comment too, and after an empty row what
     * the catalog knows of a stored table: database, name, type (MANAGED or EXTERNAL), format,
     * location, partitioning, options, comment and properties).
     */
    static LogicalPlan describe(DdlSyntax.Describe describe, Catalog catalog) {
        String name = describe.name().database() == null ? describe.name().name()
                : describe.name().database() + "." + describe.name().name();
        LogicalPlan view = catalog.view(name);
        CatalogTable stored = view == null && catalog instanceof InMemoryCatalog c && !c.hasTable(name)
                ? c.catalogTable(name) : null;
        Schema schema = view != null ? view.schema() : catalog.table(name).schema();
        List<List<Expr>> rows = new ArrayList<>();
        for (Field f : schema.fields()) {
            String comment = stored == null ? "" : stored.columns().stream().filter(c -> c.name().equals(f.name()))
                    .map(c -> c.comment() == null ? "" : c.comment()).findFirst().orElse("");
            rows.add(row(f.name(), f.type().toString(), comment));
        }
        if (describe.extended()) {
            rows.add(row("", "", ""));
            rows.add(row("# Detailed Table Information", "", ""));
            if (stored != null) {
                rows.add(row("Database", stored.database(), ""));
                rows.add(row("Table", stored.name(), ""));
                rows.add(row("Type", stored.external() ? "EXTERNAL" : "MANAGED", ""));
                rows.add(row("Provider", stored.format().name().toLowerCase(Locale.ROOT), ""));
                rows.add(row("Location", stored.location(), ""));
                addIf(rows, "Partition Columns", String.join(", ", stored.partitionedBy()));
                addIf(rows, "Options", text(stored.options()));
                addIf(rows, "Comment", stored.comment() == null ? "" : stored.comment());
                addIf(rows, "Table Properties", text(stored.properties()));
            } else if (view != null) {
                rows.add(row("Type", "VIEW", ""));
            } else {
                TableSource source = catalog.table(name);
                rows.add(row("Type", "TEMPORARY", ""));
                rows.add(row("Provider", source.format().name().toLowerCase(Locale.ROOT), ""));
                rows.add(row("Location", source.location(), ""));
                addIf(rows, "Partition Columns", String.join(", ", source.partitionColumns()));
            }
        }
        if (!describe.extended()) {
            rows.replaceAll(r -> r.subList(0, 2));
            return QueryTranslator.constantRows(List.of("column_name", "column_type"), rows);
        }
        return QueryTranslator.constantRows(List.of("column_name", "column_type", "comment"), rows);
    }

    private static void addIf(List<List<Expr>> rows, String key, String value) {
        if (!value.isEmpty()) {
            rows.add(row(key, value, ""));
        }
    }

    private static String text(Map<String, String> values) {
        return values.isEmpty() ? "" : SqlText.properties(values);
    }

    private static List<Expr> row(String a, String b, String c) {
        return List.of(Literal.of(a), Literal.of(b), Literal.of(c));
    }

    /** Spark's SHOW pattern: {@code *} any characters, {@code |} alternatives, case-insensitive; null matches all. */
    static boolean matches(String pattern, String name) {
        if (pattern == null) {
            return true;
        }
        for (String alternative : pattern.split("\\|")) {
            StringBuilder regex = new StringBuilder();
            for (char c : alternative.strip().toCharArray()) {
                regex.append(c == '*' ? ".*" : Pattern.quote(String.valueOf(c)));
            }
            if (Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE).matcher(name).matches()) {
                return true;
            }
        }
        return false;
    }
}
