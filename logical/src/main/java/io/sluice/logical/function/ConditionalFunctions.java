package io.sluice.logical.function;

import static io.sluice.logical.function.ArgKind.ANY;
import static io.sluice.logical.function.ArgKind.BOOLEAN;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Unary;
import java.util.ArrayList;
import java.util.List;

/** {@code if}, {@code coalesce}, {@code nvl}, {@code nvl2}, {@code nullif}: each a {@link Case}. */
final class ConditionalFunctions {
    private ConditionalFunctions() {
    }

    static void register(Registrar r) {
        r.rewritten("if|iff", Signature.of(3, "cond", BOOLEAN, "expr1", ANY, "expr2", ANY),
                "expr1 where cond is true, else expr2 (also where cond is NULL).",
                (name, args, context) -> new Case(List.of(args.get(0)), List.of(args.get(1)), args.get(2)));
        r.rewritten("coalesce", Signature.variadic(1, "expr", ANY), "The first argument that is not NULL, else NULL.",
                (name, args, context) -> coalesce(args));
        r.rewritten("nvl|ifnull", Signature.of(2, "expr1", ANY, "expr2", ANY), "expr1 if it is not NULL, else expr2.",
                (name, args, context) -> coalesce(args));
        r.rewritten("nvl2", Signature.of(3, "expr1", ANY, "expr2", ANY, "expr3", ANY),
                "expr2 if expr1 is not NULL, else expr3.",
                (name, args, context) -> new Case(List.of(new Unary(Unary.Op.IS_NOT_NULL, args.get(0))),
                        List.of(args.get(1)), args.get(2)));
        r.rewritten("nullif", Signature.of(2, "expr1", ANY, "expr2", ANY), "NULL if expr1 equals expr2, else expr1.",
                (name, args, context) -> new Case(List.of(new Binary(BinaryOp.EQ, args.get(0), args.get(1))),
                        List.of(Literal.nullValue()), args.get(0)));
    }

    private static Expr coalesce(List<Expr> args) {
        if (args.size() == 1) {
            return args.get(0);
        }
        List<Expr> conditions = new ArrayList<>();
        for (Expr a : args.subList(0, args.size() - 1)) {
            conditions.add(new Unary(Unary.Op.IS_NOT_NULL, a));
        }
        return new Case(conditions, args.subList(0, args.size() - 1), args.get(args.size() - 1));
    }
}
