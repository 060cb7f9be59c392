package io.sluice.operators.filter;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.SelectionKernels;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.operators.expr.BoundExprs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

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
 * <p>A conjunct that may fail on some row's values ({@link io.sluice.logical.expr.Expr#mayFail}: a division under
 * Spark's ANSI mode, a cast of text) runs after the others, in its place among such conjuncts,
 * and only over the rows still selected (gathered into a batch of their own when some were
 * removed): as an AND that stops at the first FALSE, it never fails on a row an earlier conjunct
 * removed ({@code b <> 0 AND a / b > 1}).
 *
 * <p>Not thread-safe: one per stream (the selection and the deferred flags are reused from batch
 * to batch).
 */
final class ConjunctSelection {
    private final BoundExprs conjuncts;
    private final boolean[] deferred;
    private final boolean[] fallible;
    private final BufferAllocator allocator;
    private int[] selection = new int[0];

    /** {@code allocator}: where the selected rows are gathered for a conjunct that may fail (released before {@link #select} returns). */
    ConjunctSelection(Expr predicate, Schema input, BufferAllocator allocator) {
        requireNonNull(predicate, "predicate is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        List<Expr> list = pairBounds(Exprs.conjuncts(predicate));
        this.conjuncts = new BoundExprs(list, input);
        this.deferred = new boolean[list.size()];
        this.fallible = new boolean[list.size()];
        for (int i = 0; i < fallible.length; i++) {
            fallible[i] = list.get(i).mayFail();
        }
    }

    /**
     * The conjuncts with each column's first two comparisons with constants joined into one AND,
     * in the first one's place ({@code d >= c1}, {@code d < c2}): an AND of two such comparisons of
     * one column narrows the selection in one pass ({@link io.sluice.operators.expr.BinaryExpr}),
     * where the two conjuncts took one pass each. The AND is TRUE exactly where both are.
     */
    static List<Expr> pairBounds(List<Expr> conjuncts) {
        List<Expr> paired = new ArrayList<>(conjuncts);
        Map<String, Integer> firstBound = new HashMap<>();
        for (int i = 0; i < paired.size(); i++) {
            String column = boundedColumn(paired.get(i));
            if (column == null) {
                continue;
            }
            Integer first = firstBound.putIfAbsent(column, i);
            if (first != null && first >= 0) {
                paired.set(first, new Binary(BinaryOp.AND, paired.get(first), paired.get(i)));
                paired.remove(i--);
                firstBound.put(column, -1); // paired: a third bound stays a conjunct of its own
            }
        }
        return paired;
    }

    /** The column of a {@code column op constant} comparison (either way round) that bounds a range; else null. */
    private static String boundedColumn(Expr conjunct) {
        if (!(conjunct instanceof Binary b) || b.op().kind() != BinaryOp.Kind.COMPARISON || b.op() == BinaryOp.NOT_EQ) {
            return null;
        }
        if (b.left() instanceof Column c && b.right() instanceof Literal l && l.value() != null) {
            return c.name();
        }
        if (b.right() instanceof Column c && b.left() instanceof Literal l && l.value() != null) {
            return c.name();
        }
        return null;
    }

    /** Selects the rows of {@code batch} the predicate keeps; returns how many ({@link #selection()} holds them). */
    int select(Batch batch) {
        int rows = batch.rowCount();
        if (selection.length < rows) {
            selection = new int[rows];
        }
        int count = SelectionKernels.all(selection, rows);
        for (int i = 0; i < deferred.length && count > 0; i++) {
            int kept = fallible[i] ? -1 : conjuncts.expr(i, batch).narrowSelection(batch, selection, count);
            deferred[i] = kept < 0;
            count = kept < 0 ? count : kept;
        }
        for (int i = 0; i < deferred.length && count > 0; i++) {
            if (deferred[i] && !fallible[i]) {
                count = SelectionKernels.mask(conjuncts.evaluate(i, batch), selection, count);
            }
        }
        for (int i = 0; i < deferred.length && count > 0; i++) {
            if (fallible[i]) {
                count = count == rows ? SelectionKernels.mask(conjuncts.evaluate(i, batch), selection, count)
                        : keepTrueOfSelected(i, batch, count);
            }
        }
        return count;
    }

    /** Narrows the selection by conjunct {@code i} evaluated over the {@code count} selected rows only. */
    private int keepTrueOfSelected(int i, Batch batch, int count) {
        try (Batch selected = batch.gather(selection, count, allocator)) {
            return SelectionKernels.maskSelected(conjuncts.evaluate(i, selected), selection, count);
        }
    }

    /** The rows selected by the last {@link #select}, ascending, in its first {@code count} slots. */
    int[] selection() {
        return selection;
    }
}
