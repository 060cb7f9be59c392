package io.sluice.operators.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.OperatorMetrics;
import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import io.sluice.operators.TaskCancelledException;
import io.sluice.operators.TaskContext;
import io.sluice.operators.join.JoinTestSupport.Table;
import io.sluice.operators.memory.MemoryBudget;
import io.sluice.operators.memory.MemoryMetricsSink;
import io.sluice.operators.memory.SpillFiles;
import io.sluice.operators.memory.TaskMemoryPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The tasks of a stage on one worker share a broadcast join's table: built once, answers as if
 * each task had built its own, memory reserved once and given back when the job ends; a build
 * that fails or a wait that is cancelled leaves nothing reserved and nobody waiting.
 */
class SharedBuildCacheTest extends OperatorTestBase {
    private final MemoryBudget budget = new MemoryBudget("worker", 1L << 30);
    private final SharedBuildCache cache = new SharedBuildCache(budget);
    private final ExecutorService threads = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).as("test threads ended").isTrue();
    }

    @Test
    void tasksOfAStageShareOneBuild() throws Exception {
        Table probe = JoinTestSupport.table("l", "v", DataType.INT64, 1200, 300, 7, true);
        Table build = JoinTestSupport.table("r", "w", DataType.INT64, 300, 300, 8, true);
        support.load(probe, "sl");
        support.load(build, "sr");
        int partitions = 6;
        ExecutionPlan join = new HashJoinExec(
                JoinTestSupport.source(probe, new Partitioning.Unknown(partitions), row -> Math.floorMod(
                        java.util.Arrays.hashCode(row), partitions), 64),
                JoinTestSupport.source(build, new Partitioning.Broadcast(), row -> 0, 64), JoinType.INNER,
                List.of(new Column("l.k1")), List.of(new Column("r.k1")), null, HashJoinExec.Mode.COLLECT_RIGHT);
        List<List<Object>> expected = support.query("SELECT l.*, r.* FROM sl l JOIN sr r ON l.k1 = r.k1");

        OperatorMetrics.Counter metrics = new OperatorMetrics.Counter();
        try (RootAllocator root = new RootAllocator()) {
            List<Future<List<List<Object>>>> tasks = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                int partition = p;
                tasks.add(threads.submit(() -> runTask(join, partition, "job1-s2", root, metrics)));
            }
            List<List<Object>> rows = new ArrayList<>();
            for (Future<List<List<Object>>> t : tasks) {
                rows.addAll(t.get(60, TimeUnit.SECONDS));
            }
            assertThat(JoinTestSupport.sorted(rows)).isEqualTo(JoinTestSupport.sorted(expected));
            assertThat(cache.builds()).as("tables built for six tasks").isEqualTo(1);
            assertThat(OperatorMetrics.of(List.of(metrics), List.of(List.of())).builds()[0]).isEqualTo(1);
            assertThat(cache.size()).isEqualTo(1);
            assertThat(budget.openPools()).as("task pools").isZero();
            long kept = budget.reserved();
            assertThat(kept).as("the kept table's memory, once").isPositive();
            assertThat(root.getAllocatedMemory()).as("the kept table's Arrow vectors, past its tasks").isPositive();

            // another stage builds its own; the first stage's table stays until its job ends
            assertThat(JoinTestSupport.sorted(runTask(join, 0, "job1-s5", root, metrics)))
                    .isEqualTo(JoinTestSupport.sorted(support.runPartition(join, 0, 64)));
            assertThat(cache.builds()).isEqualTo(2);
            assertThat(budget.reserved()).isEqualTo(2 * kept);
            cache.stagesEnded(List.of("job1-s2", "job1-s5"));
            assertThat(cache.size()).isZero();
            assertThat(budget.reserved()).as("memory reserved once the job ended").isZero();
            assertThat(root.getAllocatedMemory()).as("the tables' vectors freed with them").isZero();

            // a late task of the ended job builds a table that is not kept
            runTask(join, 1, "job1-s2", root, metrics);
            assertThat(cache.size()).isZero();
            assertThat(budget.reserved()).isZero();
            assertThat(root.getAllocatedMemory()).isZero();
        }
    }

    private List<List<Object>> runTask(ExecutionPlan plan, int partition, String stage, RootAllocator root,
            MemoryMetricsSink metrics) {
        String taskId = stage + "-p" + partition + "-" + Thread.currentThread().getId();
        List<List<Object>> rows = new ArrayList<>();
        try (TaskMemoryPool pool = budget.newTaskPool(taskId);
                BufferAllocator allocator = root.newChildAllocator(taskId, 0, 64L << 20)) {
            TaskContext context = new TaskContext("job1", taskId, allocator, 64,
                    Map.of(SharedBuildCache.Stage.class, cache.forStage(stage)), () -> false, pool,
                    SpillFiles.temporary(taskId), metrics);
            try (BatchStream stream = plan.execute(partition, context)) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    try (Batch b = next) {
                        Col[] cols = b.columns();
                        for (int r = 0; r < b.rowCount(); r++) {
                            List<Object> row = new ArrayList<>();
                            for (Col c : cols) {
                                row.add(JoinTestSupport.normalize(c.get(r)));
                            }
                            rows.add(row);
                        }
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        return rows;
    }

    @Test
    void aFailedBuildIsBuiltAgainByAWaitingTaskAndFreed() throws Exception {
        SharedBuildCache.Stage stage = cache.forStage("job2-s1");
        CountDownLatch building = new CountDownLatch(1);
        CountDownLatch fail = new CountDownLatch(1);
        Future<Object> first = threads.submit(() -> stage.acquire("t", () -> { }, pool -> {
            pool.register("first build", MemoryMetricsSink.NONE).grow(1000);
            building.countDown();
            await(fail);
            throw new IllegalStateException("the build side could not be read");
        }));
        assertThat(building.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger checks = new AtomicInteger();
        Future<SharedBuildCache.Lease<String>> second = threads.submit(() -> stage.acquire("t", checks::incrementAndGet,
                pool -> {
                    pool.register("second build", MemoryMetricsSink.NONE).grow(500);
                    return "table";
                }));
        long deadline = System.currentTimeMillis() + 10_000;
        while (checks.get() == 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertThat(checks.get()).as("the second task waits for the first one's build").isPositive();
        assertThat(budget.reserved()).isEqualTo(1000);
        fail.countDown();

        assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("the build side could not be read");
        try (SharedBuildCache.Lease<String> lease = second.get(10, TimeUnit.SECONDS)) {
            assertThat(lease.value()).isEqualTo("table");
            assertThat(budget.reserved()).as("only the second build's memory").isEqualTo(500);
        }
        assertThat(cache.builds()).isEqualTo(1);
        cache.stagesEnded(List.of("job2-s1"));
        assertThat(budget.reserved()).isZero();
        assertThat(cache.size()).isZero();
    }

    @Test
    void aCancelledWaitStopsAndAnEndedJobFreesTheTableWithItsLastLease() throws Exception {
        SharedBuildCache.Stage stage = cache.forStage("job3-s1");
        CountDownLatch building = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Future<SharedBuildCache.Lease<String>> first = threads.submit(() -> stage.acquire("t", () -> { }, pool -> {
            pool.register("build", MemoryMetricsSink.NONE).grow(700);
            building.countDown();
            await(finish);
            return "table";
        }));
        assertThat(building.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicBoolean cancelled = new AtomicBoolean();
        Future<SharedBuildCache.Lease<String>> second = threads.submit(() -> stage.acquire("t", () -> {
            if (cancelled.get()) {
                throw new TaskCancelledException("waiting task");
            }
        }, pool -> {
            throw new AssertionError("the waiting task does not build");
        }));
        cancelled.set(true);
        assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(TaskCancelledException.class);

        finish.countDown();
        SharedBuildCache.Lease<String> lease = first.get(10, TimeUnit.SECONDS);
        cache.stagesEnded(List.of("job3-s1"));
        assertThat(cache.size()).isZero();
        assertThat(budget.reserved()).as("in use by a task until its lease closes").isEqualTo(700);
        lease.close();
        lease.close();
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void aWaitIsBoundedAndATableThatDoesNotFitIsBuiltByEachTask() throws Exception {
        SharedBuildCache bounded = new SharedBuildCache(budget, Duration.ofMillis(100));
        SharedBuildCache.Stage stage = bounded.forStage("job4-s1");
        CountDownLatch building = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Future<SharedBuildCache.Lease<String>> slow = threads.submit(() -> stage.acquire("t", () -> { }, pool -> {
            building.countDown();
            await(finish);
            return null; // does not fit
        }));
        assertThat(building.await(10, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();
        assertThat(stage.<String>acquire("t", () -> { }, pool -> "never")).as("past the wait: build your own").isNull();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        finish.countDown();
        assertThat(slow.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(stage.<String>acquire("t", () -> { }, pool -> "never")).as("known not to fit").isNull();
        bounded.close();
        assertThat(budget.reserved()).isZero();
    }

    /** A table nobody uses past the idle bound goes on the next acquire, though its job's end was never heard of. */
    @Test
    void anIdleTableWhoseJobEndWasNeverHeardOfIsDropped() {
        SharedBuildCache sweeping = new SharedBuildCache(budget, Duration.ofSeconds(10), Duration.ZERO);
        SharedBuildCache.Lease<String> lease = sweeping.forStage("job5-s1").acquire("t", () -> { }, pool -> {
            pool.register("build", MemoryMetricsSink.NONE).grow(800);
            return "table";
        });
        assertThat(budget.reserved()).isEqualTo(800);
        lease.close();
        assertThat(budget.reserved()).as("kept for the stage's later tasks").isEqualTo(800);
        SharedBuildCache.Lease<String> other = sweeping.forStage("job6-s1").acquire("u", () -> { }, pool -> "other");
        assertThat(budget.reserved()).as("the idle table of job5 is dropped").isZero();
        assertThat(sweeping.size()).isEqualTo(1);
        other.close();
        sweeping.evictIdle();
        assertThat(sweeping.size()).as("dropped by a task's start too, with no acquire").isZero();
        assertThat(budget.reserved()).isZero();
        sweeping.close();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
