package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A database (Spark's schema or namespace): a name for a group of tables and views, and where its
 * managed tables live ({@code location}; null means under the warehouse directory). Names are
 * letters, digits and {@code _}, kept in lower case, so that one catalog file per database can be
 * named after it on any file system.
 */
public record CatalogDatabase(String name, String location, String comment) {
    public static final String DEFAULT = "default";
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]{1,128}");

    public CatalogDatabase {
        requireNonNull(name, "name is null");
        name = checkName(name);
    }

    public static CatalogDatabase named(String name) {
        return new CatalogDatabase(name, null, null);
    }

    /** The normal (lower-case) form of a database name; other characters than letters, digits and _ are refused by name. */
    public static String checkName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (!NAME.matcher(lower).matches()) {
            throw new SluiceException("invalid database name '" + name + "': use 1 to 128 letters, digits or '_'");
        }
        return lower;
    }
}
