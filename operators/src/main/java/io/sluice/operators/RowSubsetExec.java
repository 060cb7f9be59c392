package io.sluice.operators;

import io.sluice.logical.expr.Expr;
import java.util.List;
import java.util.Optional;

/**
 * An operator that outputs some of its input's rows, unchanged and in their order (a filter, a
 * runtime filter, or an operator that only watches the rows go by): its properties, order,
 * key-filter placement and run-time pruning all follow from its input, so they are answered once,
 * here. An operator that knows more of its output (a filter's equalities) still answers
 * {@link #properties()} itself.
 */
public interface RowSubsetExec extends UnaryExec {
    @Override
    default PlanProperties properties() {
        return input().properties();
    }

    @Override
    default List<Boolean> maintainsInputOrder() {
        return List.of(true);
    }

    /** Another filter commutes with this one: the keys stay as they are. */
    @Override
    default Optional<List<Expr>> filterKeysOnInput(List<Expr> keys) {
        return Optional.of(keys);
    }

    /** The columns pass through unchanged, so the input can use the predicates as they are. */
    @Override
    default ExecutionPlan withRuntimePruning(List<Expr> predicates) {
        ExecutionPlan pruned = input().withRuntimePruning(predicates);
        return pruned == input() ? this : withNewChildren(List.of(pruned));
    }

    /** The columns pass through unchanged, so the input can apply the test as it is. */
    @Override
    default ExecutionPlan withScanRowFilter(ScanRowFilter filter) {
        ExecutionPlan filtered = input().withScanRowFilter(filter);
        return filtered == input() ? this : withNewChildren(List.of(filtered));
    }
}
