package io.sluice.plan.sql;

import io.sluice.plan.source.TableSource;

/**
 * Resolves table names for the SQL front end. Kept to one method so the coordinator, tests and the
 * DataFrame API can each back it with whatever registry they have.
 */
public interface Catalog {
    /**
     * The named table. An unknown name is a user error: implementations throw a
     * {@link io.sluice.plan.SluiceException} "unknown table 'x'" that lists the known tables.
     */
    TableSource table(String name);
}
