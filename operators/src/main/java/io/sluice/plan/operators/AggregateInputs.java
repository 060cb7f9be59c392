package io.sluice.plan.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.exec.Utf8Bytes;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.physical.expr.BoundExprs;
import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What an aggregate evaluates per input batch, bound once per stream to the input's columns
 * ({@link BoundExprs}): its group keys, and in the partial phase each call's arguments (a final
 * phase merges state columns and evaluates no arguments). Not thread-safe: one per stream.
 */
final class AggregateInputs {
    private final BoundExprs bound;
    private final int[] first; // per call: index of its argument in bound, or -1
    private final int[] second; // per call: index of its second argument in bound, or -1

    /**
     * @param arguments per call its argument, or null (count(*)); {@code seconds} the same for a
     *        second argument; both ignored (may be empty) when {@code partial} is false
     */
    AggregateInputs(List<Expr> groupBy, List<Expr> arguments, List<Expr> seconds, boolean partial, Schema input) {
        requireNonNull(groupBy, "groupBy is null");
        List<Expr> exprs = new ArrayList<>(groupBy);
        int calls = partial ? arguments.size() : 0;
        first = new int[calls];
        second = new int[calls];
        Arrays.fill(second, -1);
        for (int i = 0; i < calls; i++) {
            first[i] = add(exprs, arguments.get(i));
            second[i] = seconds.isEmpty() ? -1 : add(exprs, seconds.get(i));
        }
        bound = new BoundExprs(exprs, input);
    }

    private static int add(List<Expr> exprs, Expr e) {
        if (e == null) {
            return -1;
        }
        exprs.add(e);
        return exprs.size() - 1;
    }

    /** Group key {@code i} over {@code batch}. */
    Col key(int i, Batch batch) {
        return bound.evaluate(i, batch);
    }

    /** Group key {@code i} as UTF-8 bytes when {@code batch} holds it so (an Arrow string column), else null. */
    Utf8Bytes keyBytes(int i, Batch batch) {
        return bound.utf8(i, batch);
    }

    /** Call {@code i}'s argument over {@code batch}, or null when it has none. */
    Col argument(int i, Batch batch) {
        return first[i] < 0 ? null : bound.evaluate(first[i], batch);
    }

    /** Call {@code i}'s second argument over {@code batch}, or null when it has none. */
    Col secondArgument(int i, Batch batch) {
        return second[i] < 0 ? null : bound.evaluate(second[i], batch);
    }
}
