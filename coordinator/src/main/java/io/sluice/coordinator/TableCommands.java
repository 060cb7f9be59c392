package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.catalog.Warehouse;
import io.sluice.datasource.FileAccessPolicy;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.datasource.file.TableDirectories;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.TableSource;
import io.sluice.sql.CatalogDatabase;
import io.sluice.sql.CatalogTable;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.Statement;
import io.sluice.sql.TableColumn;
import java.util.ArrayList;
import java.util.List;

/**
 * The statements that change a catalog: tables (managed ones get a directory under the
 * {@link Warehouse} and lose it when dropped; external ones only point at files), views,
 * databases, and {@code INSERT}. Every location, given or chosen, passes the file policy first.
 * Each returns the status line its statement answers with.
 */
final class TableCommands {
    private final WriteCommitter writes;
    private final FileAccessPolicy fileAccess;
    private final Warehouse warehouse;

    TableCommands(WriteCommitter writes, FileAccessPolicy fileAccess, Warehouse warehouse) {
        this.writes = requireNonNull(writes, "writes is null");
        this.fileAccess = requireNonNull(fileAccess, "fileAccess is null");
        this.warehouse = requireNonNull(warehouse, "warehouse is null");
    }

    /**
     * {@code CREATE TABLE}: an external table's schema is read from its files unless declared; a
     * managed table gets an empty directory; with {@code AS query} the query's result is written
     * first (through the commit protocol) and the table registered once it is committed.
     */
    String createTable(Statement.CreateTable create, QueryConfig config, InMemoryCatalog catalog, String text,
            QueryScope scope) {
        CatalogTable table = create.table();
        String name = table.qualifiedName();
        if (catalog.nameTaken(name)) {
            if (create.ifNotExists()) {
                return "table " + name + " already exists";
            }
            throw new SluiceException("cannot create table " + name + ": a table or view of that name already exists");
        }
        if (create.query() != null || !table.external()) {
            FileFormats.checkWriteOptions(table.format(), table.options());
        }
        String location = fileAccess.check(table.external() ? table.location()
                : warehouse.tableLocation(catalog.database(table.database()), table.name())).text();
        if (create.query() != null) {
            WriteTarget target = WriteTarget.of(location, table.format(), SaveMode.ERROR_IF_EXISTS, table.options())
                    .withPartitionBy(table.partitionedBy());
            long rows = writes.write(create.query(), target, config, text, scope);
            register(catalog, table.withLocation(location), !table.external());
            return "created table " + name + " with " + rows + " rows";
        }
        if (table.external()) {
            register(catalog, external(table, location), false);
            return "created table " + name;
        }
        if (TableDirectories.holdsAnything(location)) {
            throw new SluiceException("cannot create table " + name + ": its directory " + location + " already holds"
                    + " files; remove them, or give the table LOCATION '" + location + "' to read them");
        }
        TableDirectories.make(location);
        register(catalog, table.withLocation(location), true);
        return "created table " + name;
    }

    /** Adds the table to the catalog; a managed table's files go again if that fails. */
    private static void register(InMemoryCatalog catalog, CatalogTable table, boolean managed) {
        try {
            catalog.createTable(table);
        } catch (RuntimeException e) {
            if (managed) {
                TableDirectories.delete(table.location());
            }
            throw e;
        }
    }

    /** An external table as its files give it: the declared columns, or those read from the files. */
    private CatalogTable external(CatalogTable table, String location) {
        TableSource source = SourceFiles.guarded(fileAccess, () -> table.columns().isEmpty()
                ? FileFormats.register(table.name(), table.format(), location, table.options())
                : FileFormats.register(table.name(), table.format(), location, table.options(), table.schema()));
        for (String column : table.partitionedBy()) {
            if (source.partitionColumns().stream().noneMatch(column::equalsIgnoreCase)) {
                throw new SluiceException("CREATE EXTERNAL TABLE " + table.qualifiedName() + ": PARTITIONED BY names '"
                        + column + "', but the key=value directories at " + table.location() + " give partition columns "
                        + source.partitionColumns());
            }
        }
        CatalogTable found = new CatalogTable(table.database(), table.name(), table.columns(), table.format(),
                table.options(), source.partitionColumns(), location, true, table.comment(), table.properties());
        return found.withSchema(source.schema());
    }

    /** {@code DROP TABLE}: a temporary table, else a stored one; a managed table's directory goes with it. */
    String dropTable(Statement.DropTable drop, InMemoryCatalog catalog) {
        if (!drop.name().contains(".") && catalog.drop(drop.name())) {
            return "dropped table " + drop.name();
        }
        CatalogTable table = catalog.dropTable(drop.name());
        if (table == null) {
            if (drop.ifExists()) {
                return "table " + drop.name() + " does not exist";
            }
            try {
                catalog.table(drop.name());
            } catch (SluiceException e) {
                throw new SluiceException("cannot drop table '" + drop.name() + "': " + e.getMessage(), e);
            }
            throw new SluiceException("cannot drop table '" + drop.name() + "': it is not a stored table");
        }
        if (!table.external()) {
            TableDirectories.delete(table.location());
        }
        return "dropped table " + table.qualifiedName();
    }

    /** {@code ALTER TABLE … RENAME TO}: a managed table's directory moves to the new name's. */
    String renameTable(Statement.RenameTable rename, InMemoryCatalog catalog) {
        CatalogTable table = rename.table();
        CatalogTable renamed = table.withName(rename.database(), rename.name());
        if (table.external()) {
            catalog.renameTable(table, renamed);
        } else {
            String location = fileAccess.check(warehouse.tableLocation(catalog.database(rename.database()),
                    rename.name())).text();
            renamed = renamed.withLocation(location);
            if (catalog.nameTaken(renamed.qualifiedName())) {
                throw new SluiceException("cannot rename " + table.qualifiedName() + " to " + renamed.qualifiedName()
                        + ": a table or view of that name exists");
            }
            TableDirectories.move(table.location(), location);
            try {
                catalog.renameTable(table, renamed);
            } catch (RuntimeException e) {
                TableDirectories.move(location, table.location());
                throw e;
            }
        }
        return "renamed table " + table.qualifiedName() + " to " + renamed.qualifiedName();
    }

    /** {@code ALTER TABLE … ADD COLUMNS}: the new columns go before the partition columns; old files read them as NULL. */
    String addColumns(Statement.AddColumns add, InMemoryCatalog catalog) {
        CatalogTable table = add.table();
        List<TableColumn> columns = new ArrayList<>(table.columns());
        columns.addAll(add.columns());
        CatalogTable changed = new CatalogTable(table.database(), table.name(),
                CatalogTable.partitionColumnsLast(columns, table.partitionedBy()), table.format(), table.options(),
                table.partitionedBy(), table.location(), table.external(), table.comment(), table.properties());
        catalog.replaceTable(changed);
        return "added " + add.columns().size() + " column" + (add.columns().size() == 1 ? "" : "s") + " to "
                + table.qualifiedName();
    }

    String createView(Statement.CreateView view, InMemoryCatalog catalog) {
        if (view.stored() == null) {
            catalog.registerView(view.name(), view.plan(), view.replace());
            return "created temporary view " + view.name();
        }
        if (view.ifNotExists() && catalog.catalogView(view.stored().qualifiedName()) != null) {
            return "view " + view.stored().qualifiedName() + " already exists";
        }
        catalog.createView(view.stored(), view.replace());
        return "created view " + view.stored().qualifiedName();
    }

    String dropView(Statement.DropView drop, InMemoryCatalog catalog) {
        if (!catalog.dropView(drop.name()) && !drop.ifExists()) {
            throw new SluiceException("cannot drop view '" + drop.name() + "': unknown view '" + drop.name() + "';"
                    + io.sluice.common.NameSuggestions.didYouMean(drop.name(), catalog.viewNames()) + " views: "
                    + (catalog.viewNames().isEmpty() ? "(none)" : String.join(", ", catalog.viewNames())));
        }
        return "dropped view " + drop.name();
    }

    String createDatabase(Statement.CreateDatabase create, InMemoryCatalog catalog) {
        CatalogDatabase database = create.database();
        if (database.location() != null) {
            database = new CatalogDatabase(database.name(), fileAccess.check(database.location()).text(),
                    database.comment());
        }
        return catalog.createDatabase(database, create.ifNotExists()) ? "created database " + database.name()
                : "database " + database.name() + " already exists";
    }

    /** {@code DROP DATABASE}: its managed tables' directories go, and the database's own when the warehouse chose it. */
    String dropDatabase(Statement.DropDatabase drop, InMemoryCatalog catalog) {
        CatalogDatabase database = drop.ifExists() && !catalog.databaseNames().contains(
                CatalogDatabase.checkName(drop.name())) ? null : catalog.database(drop.name());
        List<CatalogTable> tables = catalog.dropDatabase(drop.name(), drop.ifExists(), drop.cascade());
        if (database == null) {
            return "database " + drop.name() + " does not exist";
        }
        tables.stream().filter(t -> !t.external()).forEach(t -> TableDirectories.delete(t.location()));
        if (database.location() == null) {
            TableDirectories.delete(warehouse.databaseLocation(database));
        }
        return "dropped database " + database.name();
    }

    String use(Statement.UseDatabase use, InMemoryCatalog catalog) {
        catalog.use(use.name());
        return "using database " + use.name();
    }

    String insert(Statement.Insert insert, QueryConfig config, String text, QueryScope scope) {
        TableSource table = insert.table();
        WriteTarget target = WriteTarget.of(table.location(), table.format(), insert.mode(), table.options())
                .withPartitionBy(table.partitionColumns());
        long rows = writes.write(insert.plan(), target, config, text, scope);
        return (insert.mode() == SaveMode.OVERWRITE ? "overwrote " : "inserted ") + rows + " rows into " + table.name();
    }
}
