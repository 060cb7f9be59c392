package io.sluice.logical.function;

import static io.sluice.logical.function.ArgKind.ANY;

import io.sluice.logical.expr.HigherOrderCall;
import io.sluice.logical.expr.HigherOrderCall.Function;

/** The higher-order functions, which take lambda functions: each onto a {@link HigherOrderCall}. */
final class HigherOrderFunctions {
    private HigherOrderFunctions() {
    }

    static void register(Registrar r) {
        add(r, Function.TRANSFORM, Signature.of(2, "array", ANY, "function", ANY),
                "The array of the function's values of each element (and its 0-based index).");
        add(r, Function.FILTER, Signature.of(2, "array", ANY, "function", ANY),
                "The elements (with their 0-based index) for which the function is true.");
        add(r, Function.EXISTS, Signature.of(2, "array", ANY, "function", ANY),
                "Whether the function is true for an element (NULL when it is for none but is NULL for one).");
        add(r, Function.FORALL, Signature.of(2, "array", ANY, "function", ANY),
                "Whether the function is true for every element (NULL when it is false for none but NULL for one).");
        add(r, Function.AGGREGATE, Signature.of(3, "array", ANY, "zero", ANY, "merge", ANY, "finish", ANY),
                "merge(acc, x) folded over the elements from zero, then finish(acc) when given.");
        add(r, Function.ZIP_WITH, Signature.of(3, "left", ANY, "right", ANY, "function", ANY),
                "The function of the two arrays' elements pairwise; the shorter array is padded with NULLs.");
        add(r, Function.MAP_FILTER, Signature.of(2, "map", ANY, "function", ANY),
                "The entries of the map for which function(key, value) is true.");
        add(r, Function.TRANSFORM_KEYS, Signature.of(2, "map", ANY, "function", ANY),
                "The map with each key replaced by function(key, value).");
        add(r, Function.TRANSFORM_VALUES, Signature.of(2, "map", ANY, "function", ANY),
                "The map with each value replaced by function(key, value).");
    }

    private static void add(Registrar r, Function function, Signature signature, String description) {
        r.rewritten(function.sqlName(), signature, description, (name, args, context) -> new HigherOrderCall(function, args));
    }
}
