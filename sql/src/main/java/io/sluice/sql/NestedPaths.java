package io.sluice.sql;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import java.util.List;

/** SQL's ways into nested values: field paths ({@code s.a.b}) and the functions over them by name. */
final class NestedPaths {
    private NestedPaths() {
    }

    /** {@code base.f1.f2...}: a field access per name. */
    static Expr fields(Expr base, List<String> names) {
        Expr out = base;
        for (String name : names) {
            out = new ScalarFunction(ScalarFunction.Function.GET_FIELD, List.of(out, Literal.of(name)));
        }
        return out;
    }

    /** The nested function a lower-case SQL name calls, or null. */
    static ScalarFunction.Function function(String name) {
        return switch (name) {
            case "element_at" -> ScalarFunction.Function.ELEMENT_AT;
            case "size", "cardinality" -> ScalarFunction.Function.SIZE;
            case "struct" -> ScalarFunction.Function.STRUCT;
            case "named_struct" -> ScalarFunction.Function.NAMED_STRUCT;
            case "array" -> ScalarFunction.Function.ARRAY;
            case "map" -> ScalarFunction.Function.MAP;
            default -> null;
        };
    }
}
