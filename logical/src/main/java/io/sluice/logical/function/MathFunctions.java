package io.sluice.logical.function;

import static io.sluice.logical.function.ArgKind.ANY;
import static io.sluice.logical.function.ArgKind.INTEGER;
import static io.sluice.logical.function.ArgKind.NUMBER;

import io.sluice.common.SluiceException;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.function.FunctionDefinition.ResultType;

/**
 * Spark's math functions. The logarithms give NULL for arguments at or below 0, as Spark's do;
 * {@code sqrt} of a negative number is NaN.
 */
final class MathFunctions {
    private static final ResultType DOUBLE = (types, args) -> DataType.FLOAT64;

    private MathFunctions() {
    }

    static void register(Registrar r) {
        r.evaluated("pow|power", Signature.of(2, "expr1", NUMBER, "expr2", NUMBER), "expr1 raised to the power expr2.",
                DOUBLE);
        r.evaluated("sqrt", Signature.of(1, "expr", NUMBER), "The square root of expr.", DOUBLE);
        r.evaluated("cbrt", Signature.of(1, "expr", NUMBER), "The cube root of expr.", DOUBLE);
        r.evaluated("exp", Signature.of(1, "expr", NUMBER), "e raised to the power expr.", DOUBLE);
        r.evaluated("ln", Signature.of(1, "expr", NUMBER), "The natural logarithm of expr.", DOUBLE);
        r.evaluated("log", Signature.of(1, "base", NUMBER, "expr", NUMBER),
                "The logarithm of expr in base base; with one argument, the natural logarithm.", DOUBLE);
        r.evaluated("log10", Signature.of(1, "expr", NUMBER), "The base-10 logarithm of expr.", DOUBLE);
        r.evaluated("log2", Signature.of(1, "expr", NUMBER), "The base-2 logarithm of expr.", DOUBLE);
        r.rewritten("mod", Signature.of(2, "expr1", NUMBER, "expr2", NUMBER), "The remainder of expr1 / expr2 (as %).",
                (name, args, context) -> new Binary(BinaryOp.MODULO, args.get(0), args.get(1), context.mode()));
        r.rewritten("div", Signature.of(2, "expr1", NUMBER, "expr2", NUMBER),
                "expr1 divided by expr2, truncated toward zero to a BIGINT (as expr1 DIV expr2).",
                (name, args, context) -> new Binary(BinaryOp.DIV, args.get(0), args.get(1), context.mode()));
        tolerant(r, "try_add", BinaryOp.ADD, "expr1 + expr2, NULL on overflow.");
        tolerant(r, "try_subtract", BinaryOp.SUBTRACT, "expr1 - expr2, NULL on overflow.");
        tolerant(r, "try_multiply", BinaryOp.MULTIPLY, "expr1 * expr2, NULL on overflow.");
        tolerant(r, "try_divide", BinaryOp.DIVIDE, "expr1 / expr2, NULL when expr2 is 0.");
        tolerant(r, "try_mod", BinaryOp.MODULO, "The remainder of expr1 / expr2, NULL when expr2 is 0.");
        r.evaluated("pmod", Signature.of(2, "expr1", NUMBER, "expr2", NUMBER),
                "The remainder of expr1 / expr2 made positive (NULL when expr2 is 0).",
                (types, args) -> arithmetic(BinaryOp.MODULO, types.get(0), types.get(1)));
        r.evaluated("greatest", Signature.variadic(2, "expr", ANY),
                "The largest argument, skipping NULLs (NULL when all are).", (types, args) -> common("greatest", types));
        r.evaluated("least", Signature.variadic(2, "expr", ANY),
                "The smallest argument, skipping NULLs (NULL when all are).", (types, args) -> common("least", types));
        r.evaluated("sign|signum", Signature.of(1, "expr", NUMBER), "-1.0, 0.0 or 1.0 as expr is negative, zero or"
                + " positive.", DOUBLE);
        r.evaluated("bround", Signature.of(1, "expr", NUMBER, "d", INTEGER),
                "expr rounded to d decimal places (default 0), half to even.", (types, args) -> {
                    DataType t = types.get(0);
                    if (t.kind() == Kind.NULL) {
                        return DataType.FLOAT64;
                    }
                    if (t.kind() != Kind.DECIMAL) {
                        return t;
                    }
                    int digits = args.size() > 1 ? (int) CoreFunctions.constantLong("bround", args.get(1), "d") : 0;
                    return DataType.decimal(t.precision(), Math.max(0, Math.min(t.scale(), digits)));
                });
        r.evaluated("rand|random", Signature.of(0, "seed", INTEGER),
                "A pseudo-random DOUBLE in [0, 1), from the seed when given (the same per partition and seed).", DOUBLE);
    }

    /** Spark's {@code try_} form of {@code op}: what does not fit (overflow, a zero divisor) is NULL, whatever the mode. */
    private static void tolerant(Registrar r, String name, BinaryOp op, String description) {
        r.rewritten(name, Signature.of(2, "expr1", NUMBER, "expr2", NUMBER), description,
                (n, args, context) -> new Binary(op, args.get(0), args.get(1), ArithmeticMode.TRY));
    }

    private static DataType arithmetic(BinaryOp op, DataType a, DataType b) {
        if (a.kind() == Kind.NULL || b.kind() == Kind.NULL) {
            return a.kind() == Kind.NULL ? (b.kind() == Kind.NULL ? DataType.INT32 : b) : a;
        }
        return TypeRules.arithmetic(op, a, b);
    }

    private static DataType common(String function, java.util.List<DataType> types) {
        DataType out = DataType.NULL;
        for (DataType t : types) {
            DataType next = TypeRules.commonType(out, t);
            if (next == null) {
                throw new SluiceException(function + "(): the arguments have no common type: " + out.sqlName() + " and "
                        + t.sqlName());
            }
            out = next;
        }
        if (out.kind() == Kind.STRUCT || out.kind() == Kind.LIST || out.kind() == Kind.MAP) {
            throw new SluiceException(function + "() needs comparable arguments, not " + out.sqlName());
        }
        return out.kind() == Kind.NULL ? DataType.NULL : out;
    }
}
