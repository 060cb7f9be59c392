package io.sluice.coordinator.catalog;

import static java.util.Objects.requireNonNull;

import io.sluice.sql.CatalogDatabase;
import java.util.Locale;

/**
 * Where managed tables live: {@code <root>/<database>.db/<table>}, or {@code <location>/<table>}
 * for a database created with a {@code LOCATION}. Directory names are lower case, as Spark's are,
 * so that names differing only in case never share one.
 */
public record Warehouse(String root) {
    public Warehouse {
        requireNonNull(root, "root is null");
        root = trimSlash(root);
    }

    /**
     * A warehouse in a new directory under the JVM's temporary directory (made when a table needs
     * it), for a catalog that lives only as long as its process.
     */
    public static Warehouse temporary() {
        return new Warehouse(java.nio.file.Path.of(System.getProperty("java.io.tmpdir"),
                "sluice-warehouse-" + java.util.UUID.randomUUID()).toAbsolutePath().toString());
    }

    /** The directory of a database's managed tables. */
    public String databaseLocation(CatalogDatabase database) {
        return database.location() != null ? trimSlash(database.location()) : root + "/" + database.name() + ".db";
    }

    /** The directory of a managed table. */
    public String tableLocation(CatalogDatabase database, String table) {
        return databaseLocation(database) + "/" + table.toLowerCase(Locale.ROOT);
    }

    private static String trimSlash(String location) {
        String trimmed = location;
        while (trimmed.length() > 1 && trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }
}
