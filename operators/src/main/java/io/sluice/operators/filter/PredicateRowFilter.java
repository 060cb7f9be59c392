package io.sluice.operators.filter;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.operators.ScanRowFilter;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A filter's predicate (conjuncts pushed to a scan, which stay in the filter above) as a scan
 * applies it, evaluated as the filter evaluates it ({@link ConjunctSelection}).
 */
public record PredicateRowFilter(Expr predicate) implements ScanRowFilter {
    public PredicateRowFilter {
        requireNonNull(predicate, "predicate is null");
    }

    @Override
    public List<String> columns() {
        return List.copyOf(Exprs.columns(predicate));
    }

    @Override
    public Selector bind(Schema schema, BufferAllocator allocator) {
        ConjunctSelection selection = new ConjunctSelection(predicate, schema, allocator);
        return (batch, selected) -> {
            int count = selection.select(batch);
            System.arraycopy(selection.selection(), 0, selected, 0, count);
            return count;
        };
    }

    @Override
    public Optional<ScanRowFilter> rewritten(Function<Expr, Optional<Expr>> toInput) {
        return toInput.apply(predicate).map(PredicateRowFilter::new);
    }

    @Override
    public String toString() {
        return "filter " + predicate;
    }
}
