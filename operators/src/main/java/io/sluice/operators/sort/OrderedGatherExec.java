package io.sluice.operators.sort;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.UnaryExec;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The ordered gather: its input's partitions concatenated in partition order. It requires its
 * input range-partitioned on (a prefix of) {@code keys} with every partition sorted by
 * {@code keys}, so the concatenation is globally sorted: a global {@code ORDER BY} without a merge
 * and without a sort over all rows in one task.
 *
 * <p>Like a gather into one partition it is a stage boundary: the stage cutter makes its input a
 * map stage writing one block per map task, whose reader concatenates the blocks in map order. At
 * the root of a query (under projections and filters only) no stage is added at all: the result
 * stage runs one task per input partition and the coordinator concatenates their blocks in
 * partition order. {@link #execute} (partition 0 reads every input partition in turn) is the same
 * concatenation for a plan run in one process.
 */
public record OrderedGatherExec(ExecutionPlan input, List<SortKey> keys, PlanProperties properties, long estimatedRows)
        implements UnaryExec {
    public OrderedGatherExec {
        requireNonNull(input, "input is null");
        requireNonNull(properties, "properties is null");
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("an ordered gather needs a sort key");
        }
        for (SortKey k : keys) {
            k.expr().type(input.schema());
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public OrderedGatherExec(ExecutionPlan input, List<SortKey> keys, PlanProperties properties) {
        this(input, keys, properties, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new OrderedGatherExec(input, keys, properties, rows);
    }

    /** Derives the properties once, here. */
    public OrderedGatherExec(ExecutionPlan input, List<SortKey> keys) {
        this(input, keys, propertiesOf(input, List.copyOf(keys)));
    }

    /** One partition in {@code keys} order; the rows are the input's, so its equivalences still hold. */
    private static PlanProperties propertiesOf(ExecutionPlan input, List<SortKey> keys) {
        PlanProperties in = input.properties();
        return new PlanProperties(new Partitioning.Single(), keys, in.bounded(), in.equivalences(), in.constants());
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (children.size() != 1) {
            throw new IllegalArgumentException("OrderedGatherExec takes one child, got " + children.size());
        }
        return new OrderedGatherExec(children.get(0), keys).withEstimatedRows(estimatedRows);
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        return List.of(new Distribution.RangePartitioned(keys));
    }

    @Override
    public List<List<SortKey>> requiredInputOrdering() {
        return List.of(keys);
    }

    @Override
    public List<Boolean> maintainsInputOrder() {
        return List.of(true);
    }

    @Override
    public List<Boolean> benefitsFromInputPartitioning() {
        return List.of(true);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.EQUAL;
    }

    /** Nothing to concatenate when the input is one partition already (sorted, as required). */
    @Override
    public Optional<ExecutionPlan> removeIfRedundant() {
        PlanProperties in = input.properties();
        return in.partitioning().partitionCount() == 1 && in.orderingSatisfies(keys) ? Optional.of(input) : Optional.empty();
    }

    @Override
    public String describe() {
        return "OrderedGatherExec: [" + keys.stream().map(SortKey::toString).collect(Collectors.joining(", ")) + "]";
    }

    /** Partition 0 is every input partition in order; the gather has no other partition. */
    @Override
    public BatchStream execute(int partition, TaskContext context) {
        if (partition != 0) {
            throw new IllegalArgumentException("an ordered gather has one partition, not partition " + partition);
        }
        int count = input.properties().partitioning().partitionCount();
        return new BatchStream() {
            private int next;
            private BatchStream current;

            @Override
            public Batch next() {
                while (true) {
                    if (current == null) {
                        if (next >= count) {
                            return null;
                        }
                        current = input.execute(next++, context);
                    }
                    Batch batch = current.next();
                    if (batch != null) {
                        return batch;
                    }
                    current.close();
                    current = null;
                }
            }

            @Override
            public void close() {
                if (current != null) {
                    current.close();
                    current = null;
                }
            }
        };
    }
}
