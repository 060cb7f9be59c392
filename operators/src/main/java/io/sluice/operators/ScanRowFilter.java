package io.sluice.operators;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.logical.expr.Expr;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A test of rows a scan may apply while it reads, on a few of its output columns, so that it decodes
 * its other columns only for the rows that pass (late materialization). It only ever removes rows
 * that an operator above removes anyway (a pushed filter, a bound runtime filter), which stays in
 * place: a scan that ignores it returns the same answer.
 */
public interface ScanRowFilter {
    /** The output columns of the scan the test reads. */
    List<String> columns();

    /** A selector for batches of {@code schema} (which holds at least {@link #columns()}); one per stream. */
    Selector bind(Schema schema);

    /** This test over a plan's input, its expressions rewritten by {@code toInput}; empty when one does not rewrite. */
    Optional<ScanRowFilter> rewritten(Function<Expr, Optional<Expr>> toInput);

    /** Selects rows of batches; not thread-safe. */
    interface Selector {
        /** Writes the rows of {@code batch} that may pass to {@code selected}, ascending; returns how many. */
        int select(Batch batch, int[] selected);
    }
}
