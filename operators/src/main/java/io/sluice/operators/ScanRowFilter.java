package io.sluice.operators;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.SelectionKernels;
import io.sluice.logical.expr.Expr;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A test of rows a scan may apply while it reads, on a few of its output columns, so that it decodes
 * its other columns only for the rows that pass (late materialization). It only ever removes rows
 * that an operator above removes anyway (a pushed filter, a bound runtime filter), which stays in
 * place: a scan that ignores it returns the same answer.
 */
public interface ScanRowFilter {
    /** The output columns of the scan the test reads. */
    List<String> columns();

    /**
     * A selector for batches of {@code schema} (which holds at least {@link #columns()}); one per
     * stream. What it allocates while it selects (the rows a test that may fail is evaluated on)
     * comes from {@code allocator} and is released before {@link Selector#select} returns.
     */
    Selector bind(Schema schema, BufferAllocator allocator);

    /** This test over a plan's input, its expressions rewritten by {@code toInput}; empty when one does not rewrite. */
    Optional<ScanRowFilter> rewritten(Function<Expr, Optional<Expr>> toInput);

    /** Selects rows of batches; not thread-safe. */
    interface Selector {
        /** Writes the rows of {@code batch} that may pass to {@code selected}, ascending; returns how many. */
        int select(Batch batch, int[] selected);

        /**
         * Keeps, of the {@code count} rows listed in {@code selected} (ascending), those that may
         * pass, in place; returns how many. By default tests the whole batch into {@code scratch}
         * (at least the batch's row count long) and intersects; a test that can look at the listed
         * rows alone tests only them.
         */
        default int narrow(Batch batch, int[] selected, int count, int[] scratch) {
            return SelectionKernels.intersect(selected, count, scratch, select(batch, scratch));
        }
    }
}
