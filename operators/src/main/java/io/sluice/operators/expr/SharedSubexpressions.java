package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.function.FunctionCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates once per batch an operation that occurs more than once among the expressions an
 * operator evaluates: q1's {@code l_extendedprice * (1 - l_discount)}, an argument of two sums and
 * part of a third, is computed once, not three times; q22's {@code substring(c_phone, 1, 2)}, tested
 * against each of seven codes (its {@code IN} list is seven equalities), once, not seven times.
 * Operations are arithmetic, comparisons and AND/OR ({@link BinaryExpr}), recognised by their
 * logical form, and substrings of a column ({@link SubstringExpr}), by their bound form; one that calls
 * {@code rand} is never shared. The shared node keeps the last batch's values, so a
 * list of expressions rewritten here is, as {@link BoundExprs}, for one stream (not thread-safe).
 * A kernel never writes into its operands' columns, so the shared values are read, never changed.
 */
final class SharedSubexpressions {
    /** Occurrences by key ({@link #key}): a binary operation's logical form, a substring's bound form. */
    private final Map<Object, Integer> counts = new HashMap<>();
    private final Map<Object, Shared> shared = new HashMap<>();

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

    /** What makes two occurrences the same operation, or null for an expression never shared. */
    private static Object key(PhysicalExpr e) {
        if (e instanceof BinaryExpr b) {
            return b.source();
        }
        // a substring of a column: a record, equal to another of the same column and positions (over
        // other inputs, record equality could make two calls of rand() one)
        return e instanceof SubstringExpr sub && sub.input() instanceof BoundColumn ? e : null;
    }

    private void count(PhysicalExpr e) {
        Object key = key(e);
        if (key != null && counts.merge(key, 1, Integer::sum) == 1) { // a repeat's operands are counted once
            if (e instanceof BinaryExpr b) {
                count(b.left());
                count(b.right());
            } else {
                count(((SubstringExpr) e).input());
            }
        }
    }

    private PhysicalExpr rewrite(PhysicalExpr e) {
        Object key = key(e);
        if (key == null) {
            return e;
        }
        Shared done = shared.get(key);
        if (done != null) {
            return done;
        }
        PhysicalExpr node;
        boolean deterministic = true;
        if (e instanceof BinaryExpr b) {
            PhysicalExpr left = rewrite(b.left());
            PhysicalExpr right = rewrite(b.right());
            node = left == b.left() && right == b.right() ? b : new BinaryExpr(b.op(), left, right, b.type(), b.source());
            deterministic = FunctionCall.isDeterministic(b.source());
        } else {
            SubstringExpr sub = (SubstringExpr) e;
            PhysicalExpr input = rewrite(sub.input());
            node = input == sub.input() ? sub : new SubstringExpr(input, sub.start(), sub.length());
        }
        if (counts.getOrDefault(key, 0) < 2 || !deterministic) {
            return node;
        }
        Shared s = new Shared(node);
        shared.put(key, s);
        return s;
    }

    /** An operation evaluated once per batch (by identity), its values handed to every reader. */
    static final class Shared implements PhysicalExpr {
        private final PhysicalExpr expr;
        private Batch last;
        private Col values;

        Shared(PhysicalExpr expr) {
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
