package io.sluice.physical;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;

/**
 * An operator no rule knows: it requires its input key-partitioned on one column and sorted on
 * another within each partition, and says so only through the contract.
 */
public record KeyedSortedTestOperator(ExecutionPlan input, String keyColumn, String sortColumn) implements ExecutionPlan {
    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new KeyedSortedTestOperator(children.get(0), keyColumn, sortColumn);
    }

    @Override
    public PlanProperties properties() {
        return PlanProperties.of(input.properties().partitioning());
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        return List.of(new Distribution.KeyPartitioned(List.of(new Column(keyColumn))));
    }

    @Override
    public List<List<SortKey>> requiredInputOrdering() {
        return List.of(List.of(SortKey.asc(new Column(sortColumn))));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        throw new UnsupportedOperationException("plan tests only");
    }

    @Override
    public String describe() {
        return "KeyedSortedTestOperator: key=" + keyColumn + ", sort=" + sortColumn;
    }
}
