package io.sluice.kernels;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;

/**
 * Spark 4's errors for what ANSI mode refuses, with Spark's error class first ({@code [DIVIDE_BY_ZERO]}
 * …) so that users, tests and the Spark Connect endpoint recognize them, and the expression or value
 * at fault named after it.
 */
public final class SparkErrors {
    private static final String BYPASS = " If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.";

    private SparkErrors() {
    }

    /** {@code x / 0}, {@code x DIV 0}. */
    public static SluiceException divideByZero(String expression) {
        return new SluiceException("[DIVIDE_BY_ZERO] Division by zero in " + expression
                + ". Use `try_divide` to tolerate divisor being 0 and return NULL instead." + BYPASS);
    }

    /** {@code x % 0}, {@code pmod(x, 0)}. */
    public static SluiceException remainderByZero(String expression) {
        return new SluiceException("[REMAINDER_BY_ZERO] Remainder by zero in " + expression
                + ". Use `try_mod` to tolerate divisor being 0 and return NULL instead." + BYPASS);
    }

    /** The error of a zero divisor of {@code op}. */
    public static SluiceException byZero(BinaryOp op, String expression) {
        return op == BinaryOp.MODULO ? remainderByZero(expression) : divideByZero(expression);
    }

    /** A result of {@code expression} past {@code type}; {@code tryFunction} (may be null) is the function that tolerates it. */
    public static SluiceException overflow(String expression, DataType type, String tryFunction) {
        return new SluiceException("[ARITHMETIC_OVERFLOW] " + expression + " overflows " + sparkName(type) + "."
                + (tryFunction == null ? "" : " Use '" + tryFunction + "' to tolerate overflow and return NULL instead.")
                + BYPASS);
    }

    /** The {@code try_} function that tolerates overflow of {@code op}, or null. */
    public static String tryFunction(BinaryOp op) {
        return switch (op) {
            case ADD -> "try_add";
            case SUBTRACT -> "try_subtract";
            case MULTIPLY -> "try_multiply";
            case DIVIDE, DIV -> "try_divide";
            case MODULO -> "try_mod";
            default -> null;
        };
    }

    /** Text that spells no value of {@code target}. */
    public static SluiceException castInvalidInput(String value, DataType source, DataType target) {
        return new SluiceException("[CAST_INVALID_INPUT] The value '" + value + "' of the type \"" + sparkName(source)
                + "\" cannot be cast to \"" + sparkName(target) + "\" because it is malformed. Correct the value as per "
                + "the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL "
                + "instead." + BYPASS);
    }

    /** A value of {@code source} past {@code target}'s range in a cast. */
    public static SluiceException castOverflow(String value, DataType source, DataType target) {
        return new SluiceException("[CAST_OVERFLOW] The value " + value + " of the type \"" + sparkName(source)
                + "\" cannot be cast to \"" + sparkName(target) + "\" due to an overflow. Use `try_cast` to tolerate "
                + "overflow and return NULL instead." + BYPASS);
    }

    /** {@code type} as Spark's messages spell it (INT, STRING where SQL says INTEGER, VARCHAR). */
    static String sparkName(DataType type) {
        return switch (type.kind()) {
            case INT32 -> "INT";
            case UTF8 -> "STRING";
            default -> type.sqlName();
        };
    }
}
