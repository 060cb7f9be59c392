package io.sluice.physical;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.InputDistributionRequirements;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;

/**
 * A two-input operator no rule knows, shaped like a merge join: it requires input 0
 * range-partitioned on {@code keyA} and input 1 on {@code keyB}, co-partitioned (partition i of
 * each covering the same key range), and, when {@code sorted}, each partition sorted on its key.
 * It says so only through the contract. Its output is input 0's rows.
 */
public record CoRangeTestOperator(ExecutionPlan a, ExecutionPlan b, String keyA, String keyB, boolean sorted)
        implements ExecutionPlan {
    public CoRangeTestOperator {
        requireNonNull(a, "a is null");
        requireNonNull(b, "b is null");
        requireNonNull(keyA, "keyA is null");
        requireNonNull(keyB, "keyB is null");
    }

    List<SortKey> keysA() {
        return List.of(SortKey.asc(new Column(keyA)));
    }

    List<SortKey> keysB() {
        return List.of(SortKey.asc(new Column(keyB)));
    }

    @Override
    public Schema schema() {
        return a.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(a, b);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new CoRangeTestOperator(children.get(0), children.get(1), keyA, keyB, sorted);
    }

    @Override
    public PlanProperties properties() {
        return PlanProperties.of(a.properties().partitioning());
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        return List.of(new Distribution.RangePartitioned(keysA()), new Distribution.RangePartitioned(keysB()));
    }

    @Override
    public InputDistributionRequirements inputDistributionRequirements() {
        return InputDistributionRequirements.CO_PARTITIONED;
    }

    @Override
    public List<List<SortKey>> requiredInputOrdering() {
        return sorted ? List.of(keysA(), keysB()) : List.of(List.of(), List.of());
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        throw new UnsupportedOperationException("plan tests only");
    }

    @Override
    public String describe() {
        return "CoRangeTestOperator: a=" + keyA + ", b=" + keyB + (sorted ? ", sorted" : "");
    }
}
