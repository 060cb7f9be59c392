package io.sluice.operators.filter;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.operators.ScanRowFilter;
import io.sluice.operators.expr.BoundExprs;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A bound runtime filter as a scan applies it: the rows whose {@code keys} the build side's filter
 * rejects (NULL keys included) are dropped before the scan decodes their other columns. The
 * {@link RuntimeFilterExec} above keeps filtering, so the answer does not depend on it.
 */
public record RuntimeRowFilter(List<Expr> keys, RuntimeFilter filter) implements ScanRowFilter {
    public RuntimeRowFilter {
        keys = List.copyOf(keys);
        requireNonNull(filter, "filter is null");
    }

    @Override
    public List<String> columns() {
        Set<String> columns = new LinkedHashSet<>();
        keys.forEach(key -> columns.addAll(Exprs.columns(key)));
        return List.copyOf(columns);
    }

    @Override
    public Selector bind(Schema schema, BufferAllocator allocator) {
        BoundExprs bound = new BoundExprs(keys, schema);
        return new Selector() {
            @Override
            public int select(Batch batch, int[] selected) {
                return filter.select(bound, batch, selected);
            }

            @Override
            public int narrow(Batch batch, int[] selected, int count, int[] scratch) {
                return filter.narrow(bound, batch, selected, count);
            }
        };
    }

    @Override
    public Optional<ScanRowFilter> rewritten(Function<Expr, Optional<Expr>> toInput) {
        List<Expr> below = new ArrayList<>(keys.size());
        for (Expr key : keys) {
            Optional<Expr> rewritten = toInput.apply(key);
            if (rewritten.isEmpty()) {
                return Optional.empty();
            }
            below.add(rewritten.get());
        }
        return Optional.of(new RuntimeRowFilter(below, filter));
    }

    @Override
    public String toString() {
        return "runtime filter on " + keys;
    }
}
