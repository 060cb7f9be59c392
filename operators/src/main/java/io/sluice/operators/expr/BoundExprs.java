package io.sluice.operators.expr;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import java.util.List;

/**
 * An operator's logical expressions bound for the batches of one input stream: bound once to the
 * input's schema when the operator executes, then evaluated per batch. A batch whose schema is not
 * the bound one (another object that is not equal: the names or types of its columns differ) gets
 * them bound again to its own schema, so columns resolve by name exactly as the logical expressions
 * resolve them; batches of one stream normally share one schema, checked by identity.
 *
 * <p>An operation that occurs more than once among the expressions is evaluated once per batch
 * ({@link SharedSubexpressions}). Not thread-safe: one per executing stream.
 */
public final class BoundExprs {
    private final List<Expr> exprs;
    private Schema schema;
    private List<PhysicalExpr> bound;

    public BoundExprs(List<? extends Expr> exprs, Schema input) {
        this.exprs = List.copyOf(exprs);
        this.schema = input;
        this.bound = SharedSubexpressions.share(ExprBinder.bindAll(this.exprs, input));
    }

    /** Sort keys' expressions bound to {@code input}. */
    public static BoundExprs ofSortKeys(List<SortKey> keys, Schema input) {
        return new BoundExprs(keys.stream().map(SortKey::expr).toList(), input);
    }

    /** Every expression evaluated over {@code batch}, in order. */
    public Col[] evaluateAll(Batch batch) {
        Col[] out = new Col[exprs.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = evaluate(i, batch);
        }
        return out;
    }

    /** Expression {@code i} evaluated over {@code batch}. */
    public Col evaluate(int i, Batch batch) {
        return boundFor(batch).get(i).evaluate(batch);
    }

    /** Expression {@code i}'s values as UTF-8 bytes when {@code batch} holds them so, else null ({@link PhysicalExpr#utf8}). */
    public Utf8Bytes utf8(int i, Batch batch) {
        return boundFor(batch).get(i).utf8(batch);
    }

    /** Expression {@code i} as bound for {@code batch}'s schema (to ask it more than its values). */
    public PhysicalExpr expr(int i, Batch batch) {
        return boundFor(batch).get(i);
    }

    /**
     * The index of the input column that expression {@code i} passes through unchanged (a bare
     * column reference) for {@code batch}'s schema, else -1: an operator can then hand that
     * column on in the form {@code batch} holds it (an Arrow vector shared, not copied or decoded).
     */
    public int inputColumn(int i, Batch batch) {
        return boundFor(batch).get(i) instanceof BoundColumn column ? column.index() : -1;
    }

    private List<PhysicalExpr> boundFor(Batch batch) {
        Schema s = batch.schema();
        if (s != schema && !s.equals(schema)) {
            schema = s;
            bound = SharedSubexpressions.share(ExprBinder.bindAll(exprs, s));
        }
        return bound;
    }

    /** The bound expressions for the schema bound last (for tests and EXPLAIN-like diagnostics). */
    public List<PhysicalExpr> bound() {
        return bound;
    }

    public int size() {
        return exprs.size();
    }
}
