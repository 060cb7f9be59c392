package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table kept in the catalog: its columns (partition columns last, as they read back), files of
 * one format at {@code location} read with {@code options}, and what DDL said of it. A managed
 * ({@code external} false) table's files belong to the catalog: {@code DROP TABLE} removes them;
 * an external table's are only pointed at. {@code location} is null only in a {@code CREATE}
 * statement not yet run, for a managed table whose directory the warehouse chooses.
 */
public record CatalogTable(String database, String name, List<TableColumn> columns, FileFormat format,
        Map<String, String> options, List<String> partitionedBy, String location, boolean external, String comment,
        Map<String, String> properties) {
    public CatalogTable {
        requireNonNull(database, "database is null");
        requireNonNull(name, "name is null");
        requireNonNull(format, "format is null");
        columns = List.copyOf(columns);
        options = FormatOptions.normalize(options);
        partitionedBy = List.copyOf(partitionedBy);
        properties = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    public String qualifiedName() {
        return database + "." + name;
    }

    public Schema schema() {
        return new Schema(columns.stream().map(TableColumn::field).toList());
    }

    /** The table as scans read it. */
    public TableSource source() {
        requireNonNull(location, "location is not chosen yet");
        return new TableSource(name, format, location, schema(), options, partitionedBy);
    }

    public CatalogTable withLocation(String newLocation) {
        return new CatalogTable(database, name, columns, format, options, partitionedBy, newLocation, external, comment,
                properties);
    }

    public CatalogTable withName(String newDatabase, String newName) {
        return new CatalogTable(newDatabase, newName, columns, format, options, partitionedBy, location, external, comment,
                properties);
    }

    /** This table with {@code schema}'s columns; declared comments and NOT NULL kept for the columns still there. */
    public CatalogTable withSchema(Schema schema) {
        List<TableColumn> merged = new ArrayList<>();
        for (Field f : schema.fields()) {
            merged.add(columns.stream().filter(c -> c.name().equalsIgnoreCase(f.name())).findFirst()
                    .map(c -> new TableColumn(f.name(), f.type(), c.notNull(), c.comment())).orElse(TableColumn.of(f)));
        }
        return new CatalogTable(database, name, merged, format, options, partitionedBy, location, external, comment,
                properties);
    }

    /** The columns, the partition columns moved last (where Hive-partitioned files read them). */
    public static List<TableColumn> partitionColumnsLast(List<TableColumn> columns, List<String> partitionedBy) {
        List<TableColumn> out = new ArrayList<>();
        columns.stream().filter(c -> partitionedBy.stream().noneMatch(c.name()::equalsIgnoreCase)).forEach(out::add);
        for (String p : partitionedBy) {
            columns.stream().filter(c -> c.name().equalsIgnoreCase(p)).findFirst().ifPresent(out::add);
        }
        return out;
    }

    /** The table's definition as {@code CREATE TABLE} text ({@code SHOW CREATE TABLE}). */
    public String createSql() {
        StringBuilder sql = new StringBuilder("CREATE ").append(external ? "EXTERNAL " : "").append("TABLE ")
                .append(SqlText.name(database)).append('.').append(SqlText.name(name)).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "\n  " : ",\n  ").append(columns.get(i).sql());
        }
        sql.append(")\nUSING ").append(format.name().toLowerCase(java.util.Locale.ROOT));
        if (!options.isEmpty()) {
            sql.append("\nOPTIONS ").append(SqlText.properties(options));
        }
        if (!partitionedBy.isEmpty()) {
            sql.append("\nPARTITIONED BY (").append(String.join(", ", partitionedBy.stream().map(SqlText::name).toList()))
                    .append(')');
        }
        if (location != null) {
            sql.append("\nLOCATION ").append(SqlText.string(location));
        }
        if (comment != null) {
            sql.append("\nCOMMENT ").append(SqlText.string(comment));
        }
        if (!properties.isEmpty()) {
            sql.append("\nTBLPROPERTIES ").append(SqlText.properties(properties));
        }
        return sql.toString();
    }
}
