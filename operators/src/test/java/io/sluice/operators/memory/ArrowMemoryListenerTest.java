package io.sluice.operators.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * Two tasks' Arrow buffers on a worker of 1 MiB, with real allocators: an allocation the worker's
 * allocator refuses only because the other task holds memory waits for it on the task's thread
 * and then succeeds, counted; one that could not fit alone, one made on another thread, and one
 * past the task's own limit fail at once and leave nothing counted.
 */
class ArrowMemoryListenerTest {
    private static final long MIB = 1 << 20;

    @Test
    void anAllocationShortOnlyBecauseAnotherTaskHoldsMemoryWaitsForItAndIsCounted() throws Exception {
        MemoryBudget budget = new MemoryBudget("w1", MIB);
        try (RootAllocator worker = new RootAllocator(MIB);
                TaskMemoryPool otherPool = budget.newTaskPool("t1");
                BufferAllocator other = worker.newChildAllocator("t1",
                        new ArrowMemoryListener(otherPool.register("Arrow", MemoryMetricsSink.NONE)), 0, MIB)) {
            ArrowBuf held = other.buffer(768 * 1024);
            CompletableFuture<Long> counted = CompletableFuture.supplyAsync(() -> {
                try (TaskMemoryPool pool = budget.newTaskPool("t2")) {
                    MemoryReservation arrow = pool.register("Arrow", MemoryMetricsSink.NONE);
                    try (BufferAllocator task = worker.newChildAllocator("t2", new ArrowMemoryListener(arrow, worker), 0, MIB);
                            ArrowBuf buf = task.buffer(512 * 1024)) {
                        return arrow.size();
                    }
                }
            });
            Thread.sleep(300);
            assertThat(counted).as("waits while the other task's buffer fills the worker").isNotDone();
            held.close();
            assertThat(counted.get(10, TimeUnit.SECONDS)).isEqualTo(512 * 1024);
        }
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void anAllocationTooLargeAloneOnAnotherThreadOrPastTheTaskLimitFailsAtOnceAndLeavesNothingCounted() throws Exception {
        MemoryBudget budget = new MemoryBudget("w1", MIB);
        try (RootAllocator worker = new RootAllocator(MIB);
                TaskMemoryPool otherPool = budget.newTaskPool("t1");
                BufferAllocator other = worker.newChildAllocator("t1",
                        new ArrowMemoryListener(otherPool.register("Arrow", MemoryMetricsSink.NONE)), 0, MIB);
                ArrowBuf held = other.buffer(512 * 1024);
                TaskMemoryPool pool = budget.newTaskPool("t2")) {
            MemoryReservation arrow = pool.register("Arrow", MemoryMetricsSink.NONE);
            try (BufferAllocator task = worker.newChildAllocator("t2", new ArrowMemoryListener(arrow, worker), 0, 2 * MIB)) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> task.buffer(2 * MIB)).isInstanceOf(OutOfMemoryException.class);
                assertThat(System.nanoTime() - start).as("no wait: past the worker's memory even alone")
                        .isLessThan(MemoryReservation.CONTENTION_WAIT_NANOS / 2);
                CompletableFuture<Throwable> elsewhere = CompletableFuture.supplyAsync(() -> {
                    try (ArrowBuf buf = task.buffer(768 * 1024)) {
                        return null;
                    } catch (OutOfMemoryException e) {
                        return e;
                    }
                });
                assertThat(elsewhere.get(MemoryReservation.CONTENTION_WAIT_NANOS / 2, TimeUnit.NANOSECONDS))
                        .as("no wait on a thread that is not the task's").isInstanceOf(OutOfMemoryException.class);
                assertThat(arrow.size()).isZero();
            }
            try (BufferAllocator task = worker.newChildAllocator("t2", new ArrowMemoryListener(arrow, worker), 0, 256 * 1024)) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> task.buffer(384 * 1024)).isInstanceOf(OutOfMemoryException.class)
                        .satisfies(e -> assertThat(ArrowMemoryListener.refusedBy(((OutOfMemoryException) e).getOutcomeDetails(),
                                worker)).as("the task's own limit refused it, not the worker's").isFalse());
                assertThat(System.nanoTime() - start).as("no wait: past the task's own limit")
                        .isLessThan(MemoryReservation.CONTENTION_WAIT_NANOS / 2);
                assertThat(arrow.size()).isZero();
            }
        }
        assertThat(budget.reserved()).isZero();
    }
}
