package io.sluice.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.join.HashJoinExec;
import io.sluice.operators.memory.ArrowMemoryListener;
import io.sluice.operators.memory.MemoryBudget;
import io.sluice.operators.memory.MemoryMetricsSink;
import io.sluice.operators.memory.SpillFiles;
import io.sluice.operators.memory.TaskMemoryPool;
import io.sluice.operators.sort.SortExec;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * The reservations track what operators really hold: after a large aggregate, join build and sort
 * have taken in their input, the task's reserved bytes are within a factor of 1.5 of the heap they
 * retain (measured as the live heap after full collections, with and without the operator's state).
 */
class MemoryAccountingTest {
    private static final double FACTOR = 1.5;
    private static final int ROWS = 300_000;

    @Test
    void aLargeAggregateIsAccountedForWithinTheFactor() {
        List<Expr> aggregates = List.of(new Alias(new AggregateCall(AggregateFunction.SUM, new Column("id")), "total"),
                new Alias(new AggregateCall(AggregateFunction.MIN, new Column("id")), "low"));
        // The keys' strings make a table of about 30 MiB.
        HashAggregateExec partial = HashAggregateExec.partial(new GeneratedRowsExec(ROWS, ROWS, ""),
                List.of(new Column("k"), new Column("s")), aggregates);
        check(partial);
    }

    /** The build side stays in its Arrow vectors (counted through the allocator, as in a worker), its keys on the heap. */
    @Test
    void aLargeJoinBuildSideIsAccountedForWithinTheFactor() {
        HashJoinExec join = new HashJoinExec(new GeneratedRowsExec(1, 1, "l."), new GeneratedRowsExec(ROWS, ROWS, "r."),
                JoinType.LEFT, List.of(new Column("l.k")), List.of(new Column("r.k")), null,
                HashJoinExec.Mode.PARTITIONED);
        check(join, true);
    }

    /**
     * The sort holds its rows as Arrow vectors, counted (as in a worker) through the task
     * allocator's listener, and its index on the heap: both are compared with what the pool has.
     */
    @Test
    void aLargeSortIsAccountedForWithinTheFactor() {
        check(new SortExec(new GeneratedRowsExec(ROWS, 1000, ""), List.of(SortKey.asc(new Column("s"))),
                SortExec.NO_FETCH, true), true);
    }

    private static void check(ExecutionPlan plan) {
        check(plan, false);
    }

    /**
     * Starts the operator and reads its first batch: it then holds all its state. With
     * {@code countArrow}, the task allocator counts in the pool and what it holds counts as held.
     * Measured on a second run: the first also fills the JVM's one-time state (classes' static
     * tables, caches), which would count as held when the class runs alone.
     */
    private static void check(ExecutionPlan plan, boolean countArrow) {
        measure(plan, countArrow, false);
        measure(plan, countArrow, true);
    }

    private static void measure(ExecutionPlan plan, boolean countArrow, boolean assertAccounted) {
        try (TaskMemoryPool pool = MemoryBudget.unlimited().newTaskPool("t");
                RootAllocator allocator = countArrow
                        ? new RootAllocator(new ArrowMemoryListener(pool.register("Arrow buffers", MemoryMetricsSink.NONE)),
                                1L << 30)
                        : new RootAllocator(1L << 30);
                SpillFiles files = SpillFiles.temporary("t")) {
            TaskContext context = new TaskContext("t", allocator, 8192, Map.of(), () -> false, pool, files,
                    MemoryMetricsSink.NONE);
            long before = liveHeap();
            BatchStream stream = plan.execute(0, context);
            Batch first = stream.next();
            first.close();
            long held = liveHeap() - before + (countArrow ? allocator.getAllocatedMemory() : 0);
            long reserved = pool.reserved();
            stream.close();
            if (!assertAccounted) {
                return;
            }
            assertThat(held).as("the operator holds something measurable").isGreaterThan(10L << 20);
            assertThat((double) reserved / held).as("reserved %d bytes for %d held by %s", reserved, held,
                    plan.describe()).isBetween(1 / FACTOR, FACTOR);
            assertThat(pool.reserved()).isZero();
        }
    }

    private static long liveHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
