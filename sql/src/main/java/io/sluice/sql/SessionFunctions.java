package io.sluice.sql;

import io.sluice.logical.expr.Expr;
import java.util.List;

/**
 * Functions a session defined beyond the built-in library (Spark Connect's
 * {@code spark.udf().registerJava}), which its SQL text calls by name as the DataFrame API does.
 * Consulted only for names the library does not know, so a session cannot redefine a built-in.
 */
public interface SessionFunctions {
    SessionFunctions NONE = (name, args) -> null;

    /** The call of the session's function {@code name} on {@code args}, or null when it has none by that name. */
    Expr call(String name, List<Expr> args);
}
