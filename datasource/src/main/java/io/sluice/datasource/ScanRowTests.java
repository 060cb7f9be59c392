package io.sluice.datasource;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Unevaluable;
import io.sluice.logical.function.FunctionCall;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.ScanRowFilter;
import io.sluice.operators.TaskContext;
import io.sluice.operators.filter.PredicateRowFilter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The row tests a scan applies while it reads, as one: the pushed filter's conjuncts that read only
 * file columns of the scan (deterministic, no subquery), and the bound runtime filters. A row
 * passes when every test passes it; the rows rejected are counted for EXPLAIN ANALYZE
 * ({@link TaskContext#recordRowsSkipped}).
 */
final class ScanRowTests implements ScanRowFilter {
    private final List<ScanRowFilter> tests;
    private final TaskContext context;

    private ScanRowTests(List<ScanRowFilter> tests, TaskContext context) {
        this.tests = List.copyOf(tests);
        this.context = requireNonNull(context, "context is null");
    }

    /** The tests of a scan of {@code columns} of {@code source} under {@code pushed} and {@code runtime}; null when none applies. */
    static ScanRowFilter of(List<Expr> pushed, List<ScanRowFilter> runtime, List<String> columns, TableSource source,
            TaskContext context) {
        List<String> fileColumns = columns.stream()
                .filter(c -> !source.isPartitioned() || source.partitionColumns().stream().noneMatch(c::equalsIgnoreCase))
                .toList();
        List<Expr> conjuncts = pushed.stream()
                .filter(e -> fileColumns.containsAll(Exprs.columns(e)) && !Exprs.columns(e).isEmpty() && evaluable(e))
                .toList();
        List<ScanRowFilter> tests = new ArrayList<>();
        if (!conjuncts.isEmpty()) {
            tests.add(new PredicateRowFilter(Exprs.and(conjuncts)));
        }
        runtime.stream().filter(t -> fileColumns.containsAll(t.columns())).forEach(tests::add);
        return tests.isEmpty() ? null : new ScanRowTests(tests, context);
    }

    /** Whether a scan may evaluate {@code expr} on its own: deterministic, no subquery, nothing left unplanned. */
    private static boolean evaluable(Expr expr) {
        if (expr instanceof Unevaluable || Exprs.containsOuterColumn(expr)) {
            return false;
        }
        return FunctionCall.isDeterministic(expr) && expr.children().stream().allMatch(ScanRowTests::evaluable);
    }

    @Override
    public List<String> columns() {
        Set<String> columns = new LinkedHashSet<>();
        tests.forEach(t -> columns.addAll(t.columns()));
        return List.copyOf(columns);
    }

    @Override
    public Selector bind(Schema schema, BufferAllocator allocator) {
        List<Selector> selectors = tests.stream().map(t -> t.bind(schema, allocator)).toList();
        return new Selector() {
            private int[] more = new int[0];

            @Override
            public int select(Batch batch, int[] selected) {
                int rows = batch.rowCount();
                int count = selectors.get(0).select(batch, selected);
                for (int i = 1; i < selectors.size() && count > 0; i++) {
                    if (more.length < rows) {
                        more = new int[rows];
                    }
                    // each later test sees only the rows the earlier ones kept
                    count = selectors.get(i).narrow(batch, selected, count, more);
                }
                context.recordRowsSkipped(rows - count);
                return count;
            }
        };
    }

    @Override
    public Optional<ScanRowFilter> rewritten(Function<Expr, Optional<Expr>> toInput) {
        return Optional.empty(); // made for one scan's task, never moved
    }

    @Override
    public String toString() {
        return tests.toString();
    }
}
