package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileAccessPolicy;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.TableSource;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The statements that change a catalog's tables and views: {@code CREATE EXTERNAL TABLE}, {@code
 * CREATE VIEW}, {@code DROP VIEW}, and the two that also write files, {@code CREATE TABLE AS} and
 * {@code INSERT}. Each returns the status line its statement answers with.
 */
final class TableCommands {
    private final WriteCommitter writes;
    private final FileAccessPolicy fileAccess;

    TableCommands(WriteCommitter writes, FileAccessPolicy fileAccess) {
        this.writes = requireNonNull(writes, "writes is null");
        this.fileAccess = requireNonNull(fileAccess, "fileAccess is null");
    }

    String createExternalTable(Statement.CreateExternalTable create, InMemoryCatalog catalog) {
        String location = fileAccess.check(create.location()).text();
        TableSource table = SourceFiles.guarded(fileAccess, () -> create.columns() == null
                ? FileFormats.register(create.name(), create.format(), location, create.options())
                : FileFormats.register(create.name(), create.format(), location, create.options(), create.columns()));
        for (String column : create.partitionedBy()) {
            if (table.partitionColumns().stream().noneMatch(column::equalsIgnoreCase)) {
                throw new SluiceException("CREATE EXTERNAL TABLE " + create.name() + ": PARTITIONED BY names '" + column
                        + "', but the key=value directories at " + create.location() + " give partition columns "
                        + table.partitionColumns());
            }
        }
        catalog.register(table);
        return "created table " + create.name();
    }

    String createView(Statement.CreateView view, InMemoryCatalog catalog) {
        catalog.registerView(view.name(), view.plan(), view.replace());
        return "created view " + view.name();
    }

    String dropView(Statement.DropView drop, InMemoryCatalog catalog) {
        if (!catalog.dropView(drop.name()) && !drop.ifExists()) {
            throw new SluiceException("unknown view '" + drop.name() + "'");
        }
        return "dropped view " + drop.name();
    }

    /** Writes the query's result as the new table's files, then registers the table. */
    String createTableAs(Statement.CreateTableAs create, QueryConfig config, InMemoryCatalog catalog, String text,
            QueryScope scope) {
        if (catalog.hasTable(create.name()) || catalog.view(create.name()) != null) {
            if (create.ifNotExists()) {
                return "table " + create.name() + " already exists";
            }
            throw new SluiceException("cannot create table '" + create.name() + "': a table or view of that name "
                    + "already exists");
        }
        FileFormats.checkWriteOptions(create.target().format(), create.target().options());
        WriteTarget target = create.target().withLocation(fileAccess.check(create.target().location()).text());
        long rows = writes.write(create.plan(), target, config, text, scope);
        catalog.register(new TableSource(create.name(), create.target().format(), target.location(),
                partitionColumnsLast(create.plan().schema(), create.target().partitionBy()), create.target().options(),
                create.target().partitionBy()));
        return "created table " + create.name() + " with " + rows + " rows";
    }

    /** The schema a partitioned table reads back with: the file columns, then the partition columns (as Spark orders them). */
    private static Schema partitionColumnsLast(Schema schema, List<String> partitionBy) {
        List<Field> fields = new ArrayList<>();
        schema.fields().stream().filter(f -> !partitionBy.contains(f.name())).forEach(fields::add);
        partitionBy.forEach(c -> fields.add(schema.field(c)));
        return new Schema(fields);
    }

    String insert(Statement.Insert insert, QueryConfig config, String text, QueryScope scope) {
        TableSource table = insert.table();
        WriteTarget target = WriteTarget.of(table.location(), table.format(), insert.mode(), table.options())
                .withPartitionBy(table.partitionColumns());
        long rows = writes.write(insert.plan(), target, config, text, scope);
        return (insert.mode() == SaveMode.OVERWRITE ? "overwrote " : "inserted ") + rows + " rows into " + table.name();
    }
}
