package io.sluice.sql;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a parsed catalog statement ({@link DdlSyntax}) into a {@link Statement}: names qualified
 * with the current database and checked against the catalog, the queries statements hold planned
 * (with the statement's head blanked, so error positions match the input), and the statements
 * that answer with rows planned as constant rows ({@link CatalogQueries}). Stateless.
 */
final class DdlPlanner {
    private DdlPlanner() {
    }

    /** {@code text} is the statement's text, {@code start} where the statement starts in it. */
    static Statement plan(DdlSyntax syntax, SparkSyntax.Rewritten rewritten, int start, Catalog catalog) {
        String text = rewritten.text();
        if (syntax instanceof DdlSyntax.CreateTable create) {
            return createTable(create, rewritten, start, catalog);
        }
        if (syntax instanceof DdlSyntax.CreateView create) {
            return createView(create, rewritten, start, catalog);
        }
        if (syntax instanceof DdlSyntax.Drop drop) {
            return drop.view() ? new Statement.DropView(qualified(drop.name()), drop.ifExists())
                    : new Statement.DropTable(qualified(drop.name()), drop.ifExists());
        }
        if (syntax instanceof DdlSyntax.RenameTable rename) {
            CatalogTable table = storedTable(rename.from(), catalog, "ALTER TABLE");
            String database = rename.to().database() == null ? table.database()
                    : stored(catalog).database(rename.to().database()).name();
            return new Statement.RenameTable(table, database, rename.to().name());
        }
        if (syntax instanceof DdlSyntax.AddColumns add) {
            return addColumns(add, catalog);
        }
        if (syntax instanceof DdlSyntax.ShowTables show) {
            return new Statement.Query(CatalogQueries.showTables(show, catalog));
        }
        if (syntax instanceof DdlSyntax.ShowDatabases show) {
            return new Statement.Query(CatalogQueries.showDatabases(show, stored(catalog)));
        }
        if (syntax instanceof DdlSyntax.ShowCreateTable show) {
            return new Statement.Query(CatalogQueries.showCreateTable(storedTable(show.name(), catalog, "SHOW CREATE TABLE")));
        }
        if (syntax instanceof DdlSyntax.Describe describe) {
            return new Statement.Query(CatalogQueries.describe(describe, catalog));
        }
        if (syntax instanceof DdlSyntax.CreateDatabase create) {
            return new Statement.CreateDatabase(new CatalogDatabase(create.name(), create.location(), create.comment()),
                    create.ifNotExists());
        }
        if (syntax instanceof DdlSyntax.DropDatabase drop) {
            return new Statement.DropDatabase(drop.name(), drop.ifExists(), drop.cascade());
        }
        if (syntax instanceof DdlSyntax.Use use) {
            return new Statement.UseDatabase(stored(catalog).database(use.database()).name());
        }
        return insert((DdlSyntax.Insert) syntax, rewritten, start, catalog);
    }

    private static Statement createTable(DdlSyntax.CreateTable create, SparkSyntax.Rewritten rewritten, int start,
            Catalog catalog) {
        String text = rewritten.text();
        String where = "CREATE TABLE " + create.name();
        String database = database(create.name(), catalog);
        FileFormat format = create.format() == null ? FileFormat.PARQUET : create.format();
        if (create.location() != null && create.location().isEmpty()) {
            throw new SluiceException(where + ": LOCATION is empty");
        }
        if (create.external() && create.location() == null) {
            throw new SluiceException("CREATE EXTERNAL TABLE " + create.name() + ": LOCATION '<path>' is required (where"
                    + " the table's files are)");
        }
        boolean external = create.location() != null;
        LogicalPlan query = null;
        List<TableColumn> columns = create.columns();
        List<String> partitionedBy = new ArrayList<>();
        if (create.queryStart() >= 0) {
            if (create.external()) {
                throw new SluiceException("CREATE EXTERNAL TABLE " + create.name() + ": AS <query> is for CREATE TABLE"
                        + " (an external table's data is already in its files)");
            }
            if (!columns.isEmpty()) {
                throw new SluiceException(where + ": a column list cannot go with AS <query> (the query's columns are the"
                        + " table's)");
            }
            query = SqlFrontEnd.plan(rewritten.withText(SqlFrontEnd.blank(text, start, create.queryStart())), catalog);
            columns = query.schema().fields().stream().map(TableColumn::of).toList();
        } else if (columns.isEmpty() && !external) {
            throw new SluiceException(where + ": a managed table needs its columns, as (<name> <type>, ...), or AS <query>;"
                    + " to read existing files give LOCATION '<path>'");
        }
        List<String> names = columns.stream().map(TableColumn::name).toList();
        for (String p : create.partitionedBy()) {
            if (names.isEmpty()) {
                partitionedBy.add(p); // checked against the directories found when the table is created
                continue;
            }
            partitionedBy.add(names.stream().filter(p::equalsIgnoreCase).findFirst()
                    .orElseThrow(() -> new SluiceException(where + ": PARTITIONED BY names '" + p + "', which is not a"
                            + " column;" + NameSuggestions.didYouMean(p, names) + " columns: " + String.join(", ", names))));
        }
        if (!external && !partitionedBy.isEmpty() && partitionedBy.size() == columns.size()) {
            throw new SluiceException(where + ": every column is a partition column; a table needs one column in its files");
        }
        CatalogTable table = new CatalogTable(database, create.name().name(),
                CatalogTable.partitionColumnsLast(columns, partitionedBy), format, create.options(), partitionedBy,
                create.location(), external, create.comment(), create.properties());
        return new Statement.CreateTable(table, create.ifNotExists(), query);
    }

    private static Statement createView(DdlSyntax.CreateView create, SparkSyntax.Rewritten rewritten, int start,
            Catalog catalog) {
        String text = rewritten.text();
        String name = qualified(create.name());
        SparkSyntax.Rewritten query = rewritten.withText(SqlFrontEnd.blank(text, start, create.queryStart()));
        if (create.temporary()) {
            if (create.name().database() != null) {
                throw new SluiceException("CREATE TEMPORARY VIEW " + create.name() + ": a temporary view has no database;"
                        + " name it without one");
            }
            return new Statement.CreateView(create.name().name(), renamed(SqlFrontEnd.plan(query, catalog), create),
                    create.orReplace(), null, create.ifNotExists());
        }
        InMemoryCatalog stored = stored(catalog);
        String database = database(create.name(), catalog);
        LogicalPlan plan;
        try {
            // planned as it will be read: in its database, temporary names out of sight
            plan = renamed(SqlFrontEnd.plan(query, StoredViews.scope(stored, database)), create);
        } catch (SluiceException e) {
            // a view reading temporary tables or views is temporary itself (Spark refuses to create it)
            LogicalPlan temporary = renamed(SqlFrontEnd.plan(query, catalog), create);
            if (create.name().database() != null) {
                throw e;
            }
            return new Statement.CreateView(create.name().name(), temporary, create.orReplace(), null,
                    create.ifNotExists());
        }
        CatalogView view = new CatalogView(database, create.name().name(),
                StoredViews.storedText(rewritten, create.queryStart()), create.columns(), create.comment(),
                rewritten.dialect());
        return new Statement.CreateView(name, plan, create.orReplace(), view, create.ifNotExists());
    }

    private static LogicalPlan renamed(LogicalPlan plan, DdlSyntax.CreateView create) {
        return create.columns().isEmpty() ? plan
                : QueryTranslator.renameColumns(plan, create.columns(), "view " + create.name().name());
    }

    private static Statement addColumns(DdlSyntax.AddColumns add, Catalog catalog) {
        CatalogTable table = storedTable(add.table(), catalog, "ALTER TABLE");
        List<String> names = new ArrayList<>(table.columns().stream().map(TableColumn::name).toList());
        for (TableColumn c : add.columns()) {
            if (names.stream().anyMatch(c.name()::equalsIgnoreCase)) {
                throw new SluiceException("ALTER TABLE " + table.qualifiedName() + " ADD COLUMNS: column '" + c.name()
                        + "' already exists; columns: " + String.join(", ", table.columns().stream().map(TableColumn::name)
                        .toList()));
            }
            names.add(c.name());
        }
        return new Statement.AddColumns(table, add.columns());
    }

    /**
     * {@code INSERT}: the query fitted to the table's columns, static partition values added as
     * constant columns (so the write puts the rows in that partition's directory).
     */
    private static Statement insert(DdlSyntax.Insert insert, SparkSyntax.Rewritten rewritten, int start, Catalog catalog) {
        String text = rewritten.text();
        String name = qualified(insert.table());
        if (catalog.view(name) != null) {
            throw new SluiceException("cannot INSERT INTO " + name + ": it is a view, not a table stored in files");
        }
        TableSource table = catalog.table(name);
        Schema schema = table.schema();
        Map<String, String> statics = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> e : insert.partition().entrySet()) {
            String column = table.partitionColumns().stream().filter(e.getKey()::equalsIgnoreCase).findFirst()
                    .orElseThrow(() -> new SluiceException("INSERT INTO " + name + ": PARTITION names '" + e.getKey()
                            + "', which is not a partition column of " + name + " (partition columns: "
                            + (table.partitionColumns().isEmpty() ? "none" : String.join(", ", table.partitionColumns()))
                            + ")"));
            if (e.getValue() != null) {
                statics.put(column, e.getValue());
            }
        }
        List<Field> written = schema.fields().stream().filter(f -> !statics.containsKey(f.name())).toList();
        Schema target = new Schema(written);
        LogicalPlan query = SqlFrontEnd.plan(rewritten.withText(SqlFrontEnd.blank(text, start, insert.queryStart())), catalog);
        if (!insert.columns().isEmpty()) {
            query = InsertCoercion.toTableColumns(query, insert.columns(), target, name);
        }
        LogicalPlan plan = InsertCoercion.fit(query, target, name);
        if (!statics.isEmpty()) {
            List<Expr> exprs = new ArrayList<>();
            for (Field f : schema.fields()) {
                String value = statics.get(f.name());
                exprs.add(value == null ? new Column(f.name()) : new Alias(new Cast(Literal.of(value), f.type()), f.name()));
            }
            plan = new Projection(plan, exprs);
        }
        return new Statement.Insert(table, plan, insert.overwrite() ? SaveMode.OVERWRITE : SaveMode.APPEND);
    }

    /** The stored table of that name; a temporary table or a view is an error naming it. */
    private static CatalogTable storedTable(DdlSyntax.Name name, Catalog catalog, String what) {
        InMemoryCatalog stored = stored(catalog);
        String qualified = qualified(name);
        CatalogTable table = stored.catalogTable(qualified);
        if (table == null) {
            if (name.database() == null && stored.hasTable(name.name())) {
                throw new SluiceException(what + " " + name + ": a temporary table cannot be changed this way");
            }
            if (stored.catalogView(qualified) != null) {
                throw new SluiceException(what + " " + name + ": it is a view, not a table");
            }
            if (name.database() != null) {
                stored.database(name.database());
            }
            stored.table(qualified, stored.currentDatabase()); // throws: unknown table, with suggestions
        }
        return table;
    }

    private static String database(DdlSyntax.Name name, Catalog catalog) {
        if (name.database() == null) {
            return catalog.currentDatabase();
        }
        return stored(catalog).database(name.database()).name();
    }

    private static String qualified(DdlSyntax.Name name) {
        return name.database() == null ? name.name() : name.database() + "." + name.name();
    }

    static InMemoryCatalog stored(Catalog catalog) {
        if (catalog instanceof InMemoryCatalog stored) {
            return stored;
        }
        throw new SluiceException("this catalog keeps no databases");
    }
}
