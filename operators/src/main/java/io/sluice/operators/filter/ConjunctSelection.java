package io.sluice.operators.filter;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.SelectionKernels;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.operators.expr.BoundExprs;

/**
 * A filter's predicate evaluated as a selection of row positions: its conjuncts narrow one
 * selection. A comparison of a column held as a fixed-width Arrow vector with a constant or with
 * another such column reads only the rows still selected, from the vectors' buffers
 * ({@link SelectionKernels}); these run first, so each reads fewer rows than the one before
 * (q6's five bounds: the first reads every row, the last a few percent). Any other conjunct is
 * evaluated over the batch as a boolean column and its TRUE rows kept. A row is selected when
 * every conjunct is TRUE, as the predicate's AND would say; a conjunct is not evaluated at all
 * once no row is left, as an AND that short-circuits.
 *
 * <p>Not thread-safe: one per stream (the selection and the deferred flags are reused from batch
 * to batch).
 */
final class ConjunctSelection {
    private final BoundExprs conjuncts;
    private final boolean[] deferred;
    private int[] selection = new int[0];

    ConjunctSelection(Expr predicate, Schema input) {
        requireNonNull(predicate, "predicate is null");
        this.conjuncts = new BoundExprs(Exprs.conjuncts(predicate), input);
        this.deferred = new boolean[conjuncts.size()];
    }

    /** Selects the rows of {@code batch} the predicate keeps; returns how many ({@link #selection()} holds them). */
    int select(Batch batch) {
        int rows = batch.rowCount();
        if (selection.length < rows) {
            selection = new int[rows];
        }
        int count = SelectionKernels.all(selection, rows);
        for (int i = 0; i < deferred.length && count > 0; i++) {
            int kept = conjuncts.expr(i, batch).narrowSelection(batch, selection, count);
            deferred[i] = kept < 0;
            count = kept < 0 ? count : kept;
        }
        for (int i = 0; i < deferred.length && count > 0; i++) {
            if (deferred[i]) {
                count = SelectionKernels.mask(conjuncts.evaluate(i, batch), selection, count);
            }
        }
        return count;
    }

    /** The rows selected by the last {@link #select}, ascending, in its first {@code count} slots. */
    int[] selection() {
        return selection;
    }
}
