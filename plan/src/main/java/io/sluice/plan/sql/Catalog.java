package io.sluice.plan.sql;

import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.source.TableSource;

/**
 * Resolves table and view names for the SQL front end. Kept small so the coordinator, tests and the
 * DataFrame API can each back it with whatever registry they have.
 */
public interface Catalog {
    /**
     * The named table. An unknown name is a user error: implementations throw a
     * {@link io.sluice.plan.SluiceException} "unknown table 'x'" that lists the known tables.
     */
    TableSource table(String name);

    /** The plan of the named view, or null when there is no such view (then a table is looked for). */
    default LogicalPlan view(String name) {
        return null;
    }
}
