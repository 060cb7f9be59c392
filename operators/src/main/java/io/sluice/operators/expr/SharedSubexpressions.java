package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.function.FunctionCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates once per batch an operation that occurs more than once among the expressions an
 * operator evaluates: q1's {@code l_extendedprice * (1 - l_discount)}, an argument of two sums and
 * part of a third, is computed once, not three times. Operations are arithmetic, comparisons and
 * AND/OR ({@link BinaryExpr}), found through their operands and recognised by their logical form;
 * one that calls {@code rand} is never shared. The shared node keeps the last batch's values, so a
 * list of expressions rewritten here is, as {@link BoundExprs}, for one stream (not thread-safe).
 * A kernel never writes into its operands' columns, so the shared values are read, never changed.
 */
final class SharedSubexpressions {
    private final Map<Binary, Integer> counts = new HashMap<>();
    private final Map<Binary, Shared> shared = new HashMap<>();

    private SharedSubexpressions() {
    }

    /** {@code bound} with every repeated operation replaced by one node that evaluates it once per batch. */
    static List<PhysicalExpr> share(List<PhysicalExpr> bound) {
        SharedSubexpressions s = new SharedSubexpressions();
        for (PhysicalExpr e : bound) {
            s.count(e);
        }
        if (s.counts.values().stream().noneMatch(c -> c > 1)) {
            return bound;
        }
        List<PhysicalExpr> out = new ArrayList<>(bound.size());
        for (PhysicalExpr e : bound) {
            out.add(s.rewrite(e));
        }
        return out;
    }

    private void count(PhysicalExpr e) {
        if (e instanceof BinaryExpr b) {
            if (counts.merge(b.source(), 1, Integer::sum) == 1) { // a repeat's operands are counted once
                count(b.left());
                count(b.right());
            }
        }
    }

    private PhysicalExpr rewrite(PhysicalExpr e) {
        if (!(e instanceof BinaryExpr b)) {
            return e;
        }
        Shared done = shared.get(b.source());
        if (done != null) {
            return done;
        }
        PhysicalExpr left = rewrite(b.left());
        PhysicalExpr right = rewrite(b.right());
        BinaryExpr node = left == b.left() && right == b.right() ? b : new BinaryExpr(b.op(), left, right, b.type(), b.source());
        if (counts.getOrDefault(b.source(), 0) < 2 || !FunctionCall.isDeterministic(b.source())) {
            return node;
        }
        Shared s = new Shared(node);
        shared.put(b.source(), s);
        return s;
    }

    /** An operation evaluated once per batch (by identity), its values handed to every reader. */
    static final class Shared implements PhysicalExpr {
        private final BinaryExpr expr;
        private Batch last;
        private Col values;

        Shared(BinaryExpr expr) {
            this.expr = requireNonNull(expr, "expr is null");
        }

        @Override
        public DataType type() {
            return expr.type();
        }

        @Override
        public Col evaluate(Batch batch) {
            if (batch != last) {
                values = expr.evaluate(batch);
                last = batch;
            }
            return values;
        }

        /** In place while this batch's values are not computed yet; from them (a mask) once they are. */
        @Override
        public int narrowSelection(Batch batch, int[] selection, int count) {
            return batch == last ? -1 : expr.narrowSelection(batch, selection, count);
        }

        @Override
        public String toString() {
            return expr.toString();
        }
    }
}
