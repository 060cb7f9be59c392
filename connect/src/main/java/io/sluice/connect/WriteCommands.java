package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.api.DataFrame;
import io.sluice.api.DataFrameWriter;
import io.sluice.api.FrontEnds;
import io.sluice.common.SluiceException;
import io.sluice.connect.proto.Expression;
import io.sluice.connect.proto.WriteOperation;
import io.sluice.connect.proto.WriteOperationV2;
import io.sluice.coordinator.QueryScope;
import io.sluice.logical.source.FileFormat;
import io.sluice.sql.CatalogTable;
import io.sluice.sql.SqlText;
import io.sluice.sql.TableColumn;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * {@code df.write} and {@code df.writeTo} over Spark Connect, on the engine's own write paths: a
 * path is written by the Java API's {@link DataFrameWriter}; a table by the SQL statements Spark's
 * writers mean ({@code CREATE TABLE … AS}, {@code INSERT INTO|OVERWRITE}) over the input, which is a
 * temporary view of the session only while its statement runs. What Sluice cannot write (buckets,
 * sorted or clustered tables, {@code writeTo(t).replace()}) is refused by name before anything is written.
 */
final class WriteCommands {
    private final ConnectSession session;
    private final QueryScope scope;

    WriteCommands(ConnectSession session, QueryScope scope) {
        this.session = requireNonNull(session, "session is null");
        this.scope = requireNonNull(scope, "scope is null");
    }

    /** {@code df.write.format(f).mode(m).partitionBy(..).options(..).save(path) | saveAsTable(t) | insertInto(t)}. */
    void write(WriteOperation write) {
        if (write.hasBucketBy() && write.getBucketBy().getBucketColumnNamesCount() > 0) {
            throw new SluiceException("df.write.bucketBy(" + write.getBucketBy().getBucketColumnNamesList()
                    + ") is not supported by Sluice");
        }
        if (write.getSortColumnNamesCount() > 0 || write.getClusteringColumnsCount() > 0) {
            throw new SluiceException("df.write.sortBy/clusterBy is not supported by Sluice");
        }
        DataFrame input = session.translator().translate(write.getInput());
        String format = write.hasSource() ? write.getSource() : "parquet";
        switch (write.getSaveTypeCase()) {
            case PATH -> path(input, format, write);
            case TABLE -> {
                String table = write.getTable().getTableName();
                if (write.getTable().getSaveMethod() == WriteOperation.SaveTable.TableSaveMethod.TABLE_SAVE_METHOD_INSERT_INTO) {
                    run(input, insert(table, write.getMode() == WriteOperation.SaveMode.SAVE_MODE_OVERWRITE));
                } else {
                    saveAsTable(input, table, format, write);
                }
            }
            default -> throw new SluiceException("df.write.save() needs a path (Sluice has no default location for format "
                    + format + ")");
        }
    }

    private static void path(DataFrame input, String format, WriteOperation write) {
        String path = write.getPath();
        DataFrameWriter writer = input.write().format(format).options(RelationTranslator.fileOptions(write.getOptionsMap()))
                .partitionBy(write.getPartitioningColumnsList().toArray(String[]::new));
        switch (write.getMode()) {
            case SAVE_MODE_APPEND -> writer.mode("append").save(path);
            case SAVE_MODE_OVERWRITE -> writer.mode("overwrite").save(path);
            case SAVE_MODE_IGNORE -> {
                try {
                    writer.mode("errorifexists").save(path);
                } catch (SluiceException e) {
                    // the error-if-exists write refuses before writing anything: with "ignore" that is the answer
                    if (!e.getMessage().contains("already exists")) {
                        throw e;
                    }
                }
            }
            default -> writer.mode("errorifexists").save(path);
        }
    }

    /** Spark's modes: a new table is created; an existing one is an error, left alone, appended to or overwritten. */
    private void saveAsTable(DataFrame input, String table, String format, WriteOperation write) {
        boolean exists = session.catalog().hasTable(table) || session.catalog().catalogTable(table) != null;
        WriteOperation.SaveMode mode = write.getMode();
        if (!exists || mode == WriteOperation.SaveMode.SAVE_MODE_ERROR_IF_EXISTS
                || mode == WriteOperation.SaveMode.SAVE_MODE_UNSPECIFIED) {
            run(input, create(table, format, write.getPartitioningColumnsList(), write.getOptionsMap(), Map.of()));
        } else if (mode == WriteOperation.SaveMode.SAVE_MODE_OVERWRITE && session.catalog().catalogTable(table) != null) {
            replace(session.catalog().catalogTable(table), input, format, write);
        } else if (mode != WriteOperation.SaveMode.SAVE_MODE_IGNORE) {
            run(input, insert(table, mode == WriteOperation.SaveMode.SAVE_MODE_OVERWRITE));
        }
    }

    /**
     * {@code saveAsTable} over a stored table in overwrite mode, as Spark: the table becomes the input's
     * columns, in the format and partitioning of this write, at the same location. The files are
     * replaced as an overwrite replaces them (committed at once, the old ones kept if the write
     * fails); the catalog takes the new definition only once they are committed.
     */
    private void replace(CatalogTable old, DataFrame input, String format, WriteOperation write) {
        FileFormat written = FileFormat.parse(format);
        List<String> partitionBy = write.getPartitioningColumnsList();
        DataFrame output = FrontEnds.dataFrame(session.api(), ConnectSession.output(input.logicalPlan()));
        output.write().format(format).options(write.getOptionsMap()).partitionBy(partitionBy.toArray(String[]::new))
                .mode("overwrite").save(old.location());
        List<TableColumn> columns = output.logicalPlan().schema().fields().stream().map(TableColumn::of).toList();
        session.catalog().replaceTable(new CatalogTable(old.database(), old.name(),
                CatalogTable.partitionColumnsLast(columns, partitionBy), written, write.getOptionsMap(),
                partitionBy, old.location(), old.external(), old.comment(), old.properties()));
    }

    /** {@code df.writeTo(t).using(f).partitionedBy(..).create() | append() | overwritePartitions()}. */
    void writeV2(WriteOperationV2 write) {
        DataFrame input = session.translator().translate(write.getInput());
        String table = write.getTableName();
        switch (write.getMode()) {
            case MODE_CREATE -> run(input, create(table, write.hasProvider() ? write.getProvider() : "parquet",
                    write.getPartitioningColumnsList().stream().map(WriteCommands::partitionColumn).toList(),
                    write.getOptionsMap(), write.getTablePropertiesMap()));
            case MODE_APPEND -> run(input, insert(table, false));
            case MODE_OVERWRITE_PARTITIONS -> run(input, insert(table, true));
            default -> throw new SluiceException("df.writeTo(\"" + table + "\")." + v2Name(write.getMode())
                    + "() is not supported by Sluice; use create(), append() or overwritePartitions()");
        }
    }

    private static String v2Name(WriteOperationV2.Mode mode) {
        return switch (mode) {
            case MODE_OVERWRITE -> "overwrite";
            case MODE_REPLACE -> "replace";
            case MODE_CREATE_OR_REPLACE -> "createOrReplace";
            default -> mode.name();
        };
    }

    private static String partitionColumn(Expression e) {
        if (!e.hasUnresolvedAttribute()) {
            throw new SluiceException("writeTo(..).partitionedBy takes columns, not " + e.getExprTypeCase());
        }
        return e.getUnresolvedAttribute().getUnparsedIdentifier();
    }

    private static String create(String table, String format, List<String> partitionBy, Map<String, String> options,
            Map<String, String> properties) {
        StringBuilder sql = new StringBuilder("CREATE TABLE ").append(name(table)).append(" USING ").append(SqlText.name(format));
        if (!options.isEmpty()) {
            sql.append(" OPTIONS ").append(SqlText.properties(options));
        }
        if (!partitionBy.isEmpty()) {
            sql.append(" PARTITIONED BY (").append(partitionBy.stream().map(SqlText::name).collect(Collectors.joining(", ")))
                    .append(')');
        }
        if (!properties.isEmpty()) {
            sql.append(" TBLPROPERTIES ").append(SqlText.properties(properties));
        }
        return sql.append(" AS SELECT * FROM ").toString();
    }

    private static String insert(String table, boolean overwrite) {
        return (overwrite ? "INSERT OVERWRITE TABLE " : "INSERT INTO ") + name(table) + " SELECT * FROM ";
    }

    /** A table name as the client wrote it ({@code t}, {@code db.t}), each part quoted. */
    private static String name(String table) {
        if (table.isBlank() || table.contains("`")) {
            throw new SluiceException("cannot write to table '" + table + "': give it as name or database.name");
        }
        return List.of(table.split("\\.", -1)).stream().map(SqlText::name).collect(Collectors.joining("."));
    }

    /** Runs {@code statement} (which ends in {@code FROM }) over {@code input}, a temporary view meanwhile. */
    private void run(DataFrame input, String statement) {
        String view = "__sluice_write_" + UUID.randomUUID().toString().replace("-", "");
        session.catalog().registerView(view, ConnectSession.output(input.logicalPlan()), false);
        try {
            session.prepareSql(statement + view, scope);
        } finally {
            session.catalog().dropView(view);
        }
    }
}
