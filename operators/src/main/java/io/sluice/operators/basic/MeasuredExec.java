package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.OperatorMetrics;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs an operator and counts what it does for EXPLAIN ANALYZE: its output rows and batches and
 * the time spent in its {@code execute}, {@code next} and {@code close} (children's time
 * included; {@link OperatorMetrics#of} takes it out). Built only on a worker around a task's plan,
 * after planning: it answers the plan questions as the operator it wraps does.
 */
public final class MeasuredExec implements ExecutionPlan {
    private final ExecutionPlan inner;
    private final OperatorMetrics.Counter counter;

    private MeasuredExec(ExecutionPlan inner, OperatorMetrics.Counter counter) {
        this.inner = requireNonNull(inner, "inner is null");
        this.counter = requireNonNull(counter, "counter is null");
    }

    /** A plan measured for one task: every operator wrapped, and how to read the counts back. */
    public record Measured(ExecutionPlan plan, List<OperatorMetrics.Counter> counters, List<List<Integer>> childrenOf) {
        public OperatorMetrics metrics() {
            return OperatorMetrics.of(counters, childrenOf);
        }
    }

    /** Wraps every operator of {@code plan}; counters are numbered in pre-order. */
    public static Measured measure(ExecutionPlan plan) {
        List<OperatorMetrics.Counter> counters = new ArrayList<>();
        List<List<Integer>> childrenOf = new ArrayList<>();
        ExecutionPlan wrapped = wrap(plan, counters, childrenOf);
        return new Measured(wrapped, counters, childrenOf);
    }

    private static ExecutionPlan wrap(ExecutionPlan plan, List<OperatorMetrics.Counter> counters,
            List<List<Integer>> childrenOf) {
        int index = counters.size();
        OperatorMetrics.Counter counter = new OperatorMetrics.Counter();
        counters.add(counter);
        List<Integer> childIndexes = new ArrayList<>();
        childrenOf.add(childIndexes);
        List<ExecutionPlan> children = new ArrayList<>();
        for (ExecutionPlan child : plan.children()) {
            childIndexes.add(counters.size());
            children.add(wrap(child, counters, childrenOf));
        }
        ExecutionPlan inner = children.isEmpty() ? plan : plan.withNewChildren(children);
        assert childrenOf.get(index) == childIndexes;
        return new MeasuredExec(inner, counter);
    }

    @Override
    public Schema schema() {
        return inner.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return inner.children();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new MeasuredExec(inner.withNewChildren(children), counter);
    }

    @Override
    public PlanProperties properties() {
        return inner.properties();
    }

    @Override
    public String describe() {
        return inner.describe();
    }

    @Override
    public long estimatedRows() {
        return inner.estimatedRows();
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new MeasuredExec(inner.withEstimatedRows(rows), counter);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        long start = System.nanoTime();
        BatchStream stream = inner.execute(partition, context.forOperator(counter));
        counter.addTime(System.nanoTime() - start);
        return new BatchStream() {
            @Override
            public Batch next() {
                long begin = System.nanoTime();
                Batch batch = stream.next();
                long elapsed = System.nanoTime() - begin;
                if (batch == null) {
                    counter.addTime(elapsed);
                } else {
                    counter.addBatch(batch.rowCount(), elapsed);
                }
                return batch;
            }

            @Override
            public void close() {
                long begin = System.nanoTime();
                stream.close();
                counter.addTime(System.nanoTime() - begin);
            }
        };
    }
}
