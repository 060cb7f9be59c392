package io.sluice.plan.sql;

import io.sluice.plan.SluiceException;

/** Builds the front end's user errors so their wording stays uniform. */
final class SqlErrors {
    private SqlErrors() {
    }

    /** A construct the parser accepts but Sluice cannot plan; {@code what} names it. */
    static SluiceException unsupported(String what) {
        return new SluiceException("unsupported SQL: " + what);
    }
}
