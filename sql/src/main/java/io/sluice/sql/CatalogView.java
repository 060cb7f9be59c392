package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A view kept in the catalog: its query ({@link StoredViews#storedText} spelling), planned again
 * whenever it is read (in its own database, so unqualified names mean what they meant when it was
 * created, and in the dialect it was created in, so that it means what it meant then whatever the
 * reader's), and the column names it gives the query's columns (empty to keep the query's).
 */
public record CatalogView(String database, String name, String sql, List<String> columns, String comment,
        SqlDialect dialect) {
    public CatalogView {
        requireNonNull(database, "database is null");
        requireNonNull(name, "name is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(dialect, "dialect is null");
        columns = List.copyOf(columns);
    }

    /** A view created in the default dialect, Spark's (what a view stored before dialects were kept means). */
    public CatalogView(String database, String name, String sql, List<String> columns, String comment) {
        this(database, name, sql, columns, comment, SqlDialect.SPARK);
    }

    public String qualifiedName() {
        return database + "." + name;
    }
}
