package io.sluice.coordinator.catalog;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
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
        return database.location() != null ? trimSlash(database.location())
                : root + "/" + pathPart("database", database.name()) + ".db";
    }

    /** The directory of a managed table. */
    public String tableLocation(CatalogDatabase database, String table) {
        return databaseLocation(database) + "/" + pathPart("table", table).toLowerCase(Locale.ROOT);
    }

    /**
     * A name that becomes one directory name: quoted names may hold any character, and a {@code /},
     * {@code \}, {@code :} or a name of only dots would put the directory elsewhere under the
     * allowed roots (and DROP TABLE deletes it), so such names are refused for managed tables.
     */
    private static String pathPart(String kind, String name) {
        boolean onlyDots = !name.isEmpty() && name.chars().allMatch(c -> c == '.');
        if (name.isEmpty() || onlyDots || name.chars().anyMatch(c -> c == '/' || c == '\\' || c == ':' || c < 0x20)) {
            throw new SluiceException("the " + kind + " name '" + name + "' cannot name a directory of the warehouse"
                    + " (no '/', '\\', ':', control characters, or a name of only dots); choose another name or give"
                    + " a LOCATION");
        }
        return name;
    }

    private static String trimSlash(String location) {
        String trimmed = location;
        while (trimmed.length() > 1 && trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }
}
