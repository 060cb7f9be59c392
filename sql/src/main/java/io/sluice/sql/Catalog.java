package io.sluice.sql;

import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.TableSource;
import java.util.List;

/**
 * Resolves table and view names for the SQL front end. Kept small so the coordinator, tests and the
 * DataFrame API can each back it with whatever registry they have.
 */
public interface Catalog {
    /**
     * The named table. An unknown name is a user error: implementations throw a
     * {@link io.sluice.common.SluiceException} "unknown table 'x'" that lists the known tables.
     */
    TableSource table(String name);

    /** The names of the registered tables, sorted; for SHOW TABLES. */
    default List<String> tableNames() {
        return List.of();
    }

    /** The names of the registered views, sorted; for SHOW TABLES. */
    default List<String> viewNames() {
        return List.of();
    }

    /** The database unqualified names of tables and views are looked up in. */
    default String currentDatabase() {
        return "default";
    }

    /** The plan of the named view, or null when there is no such view (then a table is looked for). */
    default LogicalPlan view(String name) {
        return null;
    }

    /** The functions of the session this catalog serves, which its SQL calls after the built-in ones. */
    default SessionFunctions functions() {
        return SessionFunctions.NONE;
    }
}
