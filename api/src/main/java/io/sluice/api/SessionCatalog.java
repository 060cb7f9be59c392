package io.sluice.api;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * A session's tables and views, as Spark's {@code spark.catalog()}: answered by the session's SQL
 * ({@code SHOW TABLES}, {@code DROP VIEW}), so a remote session sees what its coordinator holds.
 */
public final class SessionCatalog {
    private final Session session;

    SessionCatalog(Session session) {
        this.session = requireNonNull(session, "session is null");
    }

    /** The names of the tables and views, as {@code SHOW TABLES} lists them. */
    public List<String> listTables() {
        List<String> names = new ArrayList<>();
        for (List<Object> row : session.sql("SHOW TABLES").collect().rows()) {
            names.add(String.valueOf(row.get(0)));
        }
        return names;
    }

    /** Whether a table or view of that name exists (ignoring case). */
    public boolean tableExists(String name) {
        return listTables().stream().anyMatch(name::equalsIgnoreCase);
    }

    /** Drops the temporary view {@code name}; whether there was one. */
    public boolean dropTempView(String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new io.sluice.common.SluiceException("not a view name: '" + name + "'");
        }
        boolean existed = tableExists(name);
        session.sql("DROP VIEW IF EXISTS " + name);
        return existed;
    }
}
