package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A view kept in the catalog: its query as the user wrote it, planned again whenever it is read
 * (in its own database, so unqualified names mean what they meant when it was created), and the
 * column names it gives the query's columns (empty to keep the query's).
 */
public record CatalogView(String database, String name, String sql, List<String> columns, String comment) {
    public CatalogView {
        requireNonNull(database, "database is null");
        requireNonNull(name, "name is null");
        requireNonNull(sql, "sql is null");
        columns = List.copyOf(columns);
    }

    public String qualifiedName() {
        return database + "." + name;
    }
}
