package io.sluice.logical.function;

import static io.sluice.logical.function.ArgKind.ANY;
import static io.sluice.logical.function.ArgKind.DATE;
import static io.sluice.logical.function.ArgKind.INTEGER;
import static io.sluice.logical.function.ArgKind.NUMBER;
import static io.sluice.logical.function.ArgKind.STRING;
import static io.sluice.logical.function.ArgKind.TIMESTAMP;

import io.sluice.common.SluiceException;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.DateTrunc;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Extract;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.ScalarFunction.Function;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.expr.Unary;
import java.util.List;

/**
 * The functions that existed before the library, each onto the expression that already describes
 * it: {@link ScalarFunction} (strings, rounding, nested values), {@link Substring}, {@link Extract}
 * and {@link DateTrunc}.
 */
final class CoreFunctions {
    private CoreFunctions() {
    }

    static void register(Registrar r) {
        scalar(r, "upper|ucase", Function.UPPER, "The string in upper case.", "str", STRING);
        scalar(r, "lower|lcase", Function.LOWER, "The string in lower case.", "str", STRING);
        scalar(r, "trim", Function.TRIM, "The string without leading and trailing spaces.", "str", STRING);
        scalar(r, "ltrim", Function.LTRIM, "The string without leading spaces.", "str", STRING);
        scalar(r, "rtrim", Function.RTRIM, "The string without trailing spaces.", "str", STRING);
        scalar(r, "length|char_length|character_length|len", Function.LENGTH, "The number of characters of the string.",
                "str", STRING);
        scalar(r, "instr|strpos", Function.STRPOS,
                "The 1-based position of the first occurrence of substr in str, 0 if absent.", "str", STRING, "substr", STRING);
        scalar(r, "replace", Function.REPLACE, "str with every occurrence of search replaced by replace.",
                "str", STRING, "search", STRING, "replace", STRING);
        scalar(r, "startswith|starts_with", Function.STARTS_WITH, "Whether str starts with prefix.",
                "str", STRING, "prefix", STRING);
        scalar(r, "abs", Function.ABS, "The absolute value.", "expr", NUMBER);
        r.rewritten("round", Signature.of(1, "expr", NUMBER, "d", INTEGER),
                "expr rounded to d decimal places (default 0), half away from zero.",
                (name, args, context) -> new ScalarFunction(Function.ROUND, args));
        scalar(r, "floor", Function.FLOOR, "The largest whole number not greater than expr.", "expr", NUMBER);
        scalar(r, "ceil|ceiling", Function.CEIL, "The smallest whole number not less than expr.", "expr", NUMBER);
        r.rewritten("concat", Signature.variadic(1, "expr", ANY),
                "The arguments' text joined; NULL when one is NULL (Spark; the ansi dialect skips NULLs as DuckDB).",
                (name, args, context) -> context.mode() == ArithmeticMode.STRICT ? new ScalarFunction(Function.CONCAT, args)
                        : nullPropagatingConcat(args));

        scalar(r, "element_at", Function.ELEMENT_AT,
                "An array's element at a 1-based index (negative from the end), or a map's value at a key.",
                "container", ANY, "index", ANY);
        scalar(r, "size|cardinality", Function.SIZE, "The number of elements of an array or entries of a map.",
                "expr", ANY);
        r.rewritten("struct", Signature.variadic(1, "col", ANY), "A struct of the arguments.",
                (name, args, context) -> new ScalarFunction(Function.STRUCT, args));
        r.rewritten("named_struct", Signature.variadic(2, "name", ANY, "value", ANY),
                "A struct with the given field names and values.",
                (name, args, context) -> new ScalarFunction(Function.NAMED_STRUCT, args));
        r.rewritten("array", Signature.variadic(1, "expr", ANY), "An array of the arguments.",
                (name, args, context) -> new ScalarFunction(Function.ARRAY, args));
        r.rewritten("map", Signature.variadic(2, "key", ANY, "value", ANY), "A map of the key, value pairs.",
                (name, args, context) -> new ScalarFunction(Function.MAP, args));

        r.evaluated("sort_array", Signature.of(1, "array", ANY, "ascendingOrder", ArgKind.BOOLEAN),
                "The array sorted (ascending unless ascendingOrder is false; NULLs first ascending).", (types, args) -> {
                    requireArray("sort_array", types, args);
                    return types.get(0);
                });
        r.evaluated("array_contains", Signature.of(2, "array", ANY, "value", ANY),
                "Whether the array holds value (NULL when it does not but holds a NULL).", (types, args) -> {
                    requireArray("array_contains", types, args);
                    return io.sluice.common.types.DataType.BOOL;
                });
        r.evaluated("substring|substr", Signature.of(2, "str", STRING, "pos", INTEGER, "len", INTEGER),
                "The substring of str from 1-based position pos (from the end when negative), len characters long"
                        + " (to the end without len).", StringFunctions.TEXT, CoreFunctions::substring);

        part(r, "year", "The year of a date or timestamp.");
        part(r, "quarter", "The quarter of the year (1 to 4).");
        part(r, "month", "The month (1 to 12).");
        part(r, "day|dayofmonth", "The day of the month.");
        part(r, "hour", "The hour of a timestamp.");
        part(r, "minute", "The minute of a timestamp.");
        part(r, "second", "The second of a timestamp.");
        r.rewritten("dayofweek", Signature.of(1, "date", DATE),
                "The day of the week: 1 (Sunday) to 7 (Saturday) as Spark numbers them; 0 to 6 in the ansi dialect, as DuckDB.",
                (name, args, context) -> context.mode() == ArithmeticMode.STRICT ? new Extract(Extract.Field.DOW, args.get(0))
                        : new Binary(BinaryOp.ADD, new Extract(Extract.Field.DOW, args.get(0)), Literal.of(1L)));
        part(r, "dayofyear", "The day of the year (1 to 366).");
        part(r, "epoch", "Seconds since 1970-01-01 00:00:00.");
        r.rewritten("date_part|datepart", Signature.of(2, "field", STRING, "source", TIMESTAMP),
                "The named part (year, month, day, hour, ...) of a date or timestamp.",
                (name, args, context) -> new Extract(Extract.Field.named(constantText(name, args.get(0), "field")),
                        args.get(1)));
        r.rewritten("date_trunc|datetrunc", Signature.of(2, "fmt", STRING, "ts", TIMESTAMP),
                "The date or timestamp truncated to the unit fmt names (year, quarter, month, week, day, hour, ...).",
                (name, args, context) -> new DateTrunc(DateTrunc.unit(constantText(name, args.get(0), "fmt")), args.get(1)));
    }

    private static void requireArray(String function, List<io.sluice.common.types.DataType> types, List<Expr> args) {
        if (types.get(0).kind() != io.sluice.common.types.DataType.Kind.LIST) {
            throw new SluiceException(function + "(): argument 1 (array) must be an ARRAY, not " + types.get(0).sqlName()
                    + " (" + args.get(0) + ")");
        }
    }

    private static void scalar(Registrar r, String names, Function function, String description, Object... params) {
        r.rewritten(names, Signature.of(params.length / 2, params), description,
                (name, args, context) -> new ScalarFunction(function, args));
    }

    private static void part(Registrar r, String names, String description) {
        r.rewritten(names, Signature.of(1, "source", DATE), description,
                (name, args, context) -> new Extract(Extract.Field.named(name), args.get(0)));
    }

    /** A constant start of at least 1 and length of at least 0: a {@link Substring}, whose semantics agree there. */
    private static Expr substring(String name, List<Expr> args, CallContext context) {
        Long start = constantOrNull(args.get(1));
        Long length = args.size() > 2 ? constantOrNull(args.get(2)) : Long.valueOf(0);
        if (start != null && start >= 1 && length != null && length >= 0) {
            return new Substring(args.get(0), start, args.size() > 2 ? length : null);
        }
        return new FunctionCall(name, args, context.timeZone());
    }

    private static Long constantOrNull(Expr e) {
        if (e instanceof Literal l && l.value() instanceof Long v) {
            return v;
        }
        if (e instanceof Unary u && u.op() == Unary.Op.NEGATE && u.input() instanceof Literal l && l.value() instanceof Long v) {
            return -v;
        }
        return null;
    }

    /** A constant whole-number argument. */
    static long constantLong(String function, Expr arg, String param) {
        Long v = constantOrNull(arg);
        if (v != null) {
            return v;
        }
        throw new SluiceException(function + "(): argument " + param + " must be a constant whole number, not " + arg);
    }

    /** A constant text argument. */
    static String constantText(String function, Expr arg, String param) {
        if (arg instanceof Literal l && l.value() instanceof String text) {
            return text;
        }
        throw new SluiceException(function + "(): argument " + param + " must be a constant string such as 'month', not "
                + arg);
    }

    /**
     * Spark's {@code concat}: NULL as soon as one argument is NULL, as the {@code ||} operator is (the
     * spark dialect's contexts are the ones not in {@link ArithmeticMode#STRICT}).
     */
    private static Expr nullPropagatingConcat(List<Expr> args) {
        Expr joined = args.size() == 1 ? new ScalarFunction(Function.CONCAT_OPERATOR, List.of(args.get(0), Literal.of("")))
                : args.get(0);
        for (int i = 1; i < args.size(); i++) {
            joined = new ScalarFunction(Function.CONCAT_OPERATOR, List.of(joined, args.get(i)));
        }
        return joined;
    }
}
