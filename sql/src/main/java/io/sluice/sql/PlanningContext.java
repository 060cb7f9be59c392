package io.sluice.sql;

import io.sluice.logical.function.CallContext;
import io.sluice.logical.function.FunctionLibrary;
import java.util.function.Supplier;

/**
 * The function library (session time zone, query start, arithmetic mode) that the statement being
 * planned on this thread translates its expressions with, and the session's own functions. Planning a statement is one call on one
 * thread ({@link SqlFrontEnd#parse}), and its translators are made in many places deep in the
 * planner; holding the library here for the length of that call gives each of them the session's
 * without threading it through every planning class. Outside such a call: the built-in library
 * (UTC, strict arithmetic).
 */
final class PlanningContext {
    private static final ThreadLocal<FunctionLibrary> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<SessionFunctions> FUNCTIONS = new ThreadLocal<>();

    private PlanningContext() {
    }

    /** {@code body}'s result, with {@code context}'s library current while it runs. */
    static <T> T with(CallContext context, Supplier<T> body) {
        FunctionLibrary outer = CURRENT.get();
        CURRENT.set(FunctionLibrary.builtIn().withContext(context));
        try {
            return body.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /** {@code body}'s result, with {@code context}'s library and the session's {@code functions} current while it runs. */
    static <T> T with(CallContext context, SessionFunctions functions, Supplier<T> body) {
        SessionFunctions outer = FUNCTIONS.get();
        FUNCTIONS.set(functions);
        try {
            return with(context, body);
        } finally {
            if (outer == null) {
                FUNCTIONS.remove();
            } else {
                FUNCTIONS.set(outer);
            }
        }
    }

    /** The functions of the session whose statement is being planned, else none. */
    static SessionFunctions functions() {
        SessionFunctions current = FUNCTIONS.get();
        return current != null ? current : SessionFunctions.NONE;
    }

    /** The library of the statement being planned, else the built-in one. */
    static FunctionLibrary library() {
        FunctionLibrary current = CURRENT.get();
        return current != null ? current : FunctionLibrary.builtIn();
    }
}
