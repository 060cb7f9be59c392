package io.sluice.operators.aggregate;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.expr.BoundExprs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * What an aggregate evaluates per input batch, bound once per stream to the input's columns
 * ({@link BoundExprs}): its group keys, and in the partial phase each call's arguments (a final
 * phase merges state columns and evaluates no arguments). Not thread-safe: one per stream.
 *
 * <p>Also the stream's scratch arrays, reused batch after batch so that grouping a batch allocates
 * nothing in proportion to its rows: the group ids of a batch's rows and the rows' hashes.
 */
final class AggregateInputs {
    private final BoundExprs bound;
    private final int[] first; // per call: index of its argument in bound, or -1
    private final int[] second; // per call: index of its second argument in bound, or -1
    private int[] ids = new int[0];
    private long[] hashes = new long[0];
    private int[] zeros = new int[0];

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

    /** The group keys as the Arrow vectors {@code batch} holds them in (owned by the batch), or null when one is not held so. */
    FieldVector[] keyVectors(int keys, Batch batch) {
        FieldVector[] vectors = new FieldVector[keys];
        for (int i = 0; i < keys; i++) {
            vectors[i] = bound.expr(i, batch).arrowVector(batch);
            if (vectors[i] == null) {
                return null;
            }
        }
        return vectors;
    }

    /** Group key {@code i} read in place from {@code batch}'s Arrow vector, or null when it is not one {@link InPlaceValues} reads. */
    InPlaceValues keyInPlace(int i, Batch batch) {
        return inPlace(i, batch);
    }

    /** Call {@code i}'s argument read in place from {@code batch}'s Arrow vector, or null (none, or not one {@link InPlaceValues} reads). */
    InPlaceValues argumentInPlace(int i, Batch batch) {
        return first[i] < 0 ? null : inPlace(first[i], batch);
    }

    /** Call {@code i}'s argument as the Arrow vector {@code batch} holds it in, or null (none, computed, or held on the heap). */
    FieldVector argumentVector(int i, Batch batch) {
        return first[i] < 0 ? null : bound.expr(first[i], batch).arrowVector(batch);
    }

    private InPlaceValues inPlace(int index, Batch batch) {
        return bound.expr(index, batch).inPlace(batch);
    }

    /** Scratch for the group ids of {@code rows} rows (any values). */
    int[] ids(int rows) {
        if (ids.length < rows) {
            ids = new int[rows];
        }
        return ids;
    }

    /** Scratch for the hashes of {@code rows} rows (any values). */
    long[] hashes(int rows) {
        if (hashes.length < rows) {
            hashes = new long[rows];
        }
        return hashes;
    }

    /** {@code rows} zeros: the group ids of a global aggregate's rows (never written). */
    int[] zeros(int rows) {
        if (zeros.length < rows) {
            zeros = new int[rows];
        }
        return zeros;
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
