package io.sluice.operators.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * Two tasks' Arrow buffers on a worker of 1 MiB, with real allocators: an allocation the worker's
 * allocator refuses only because the other task holds memory waits for it on the task's thread
 * and then succeeds, counted once; one that could not fit alone, one made on another thread, and
 * one past the task's own limit fail at once, leave nothing counted, and say whether the worker
 * was full.
 */
class ArrowMemoryListenerTest {
    private static final long MIB = 1 << 20;

    @Test
    void anAllocationShortOnlyBecauseAnotherTaskHoldsMemoryWaitsForItAndIsCountedOnce() throws Exception {
        MemoryBudget budget = new MemoryBudget("w1", MIB);
        try (RootAllocator worker = new RootAllocator(MIB);
                TaskMemoryPool otherPool = budget.newTaskPool("t1");
                BufferAllocator other = worker.newChildAllocator("t1",
                        new ArrowMemoryListener(otherPool.register("Arrow", MemoryMetricsSink.NONE)), 0, MIB)) {
            ArrowBuf held = other.buffer(768 * 1024);
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<long[]> counted = CompletableFuture.supplyAsync(() -> {
                try (TaskMemoryPool pool = budget.newTaskPool("t2")) {
                    MemoryReservation arrow = pool.register("Arrow", MemoryMetricsSink.NONE);
                    ArrowMemoryListener listener = new ArrowMemoryListener(arrow, worker);
                    try (BufferAllocator task = listener.newTaskAllocator("t2", MIB)) {
                        started.countDown();
                        try (ArrowBuf buf = task.buffer(512 * 1024)) {
                            return new long[] {arrow.size(), listener.workerWasFull() ? 1 : 0};
                        }
                    }
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(300);
            assertThat(counted).as("waits while the other task's buffer fills the worker").isNotDone();
            held.close();
            assertThat(counted.get(10, TimeUnit.SECONDS)).as("counted once, and the worker was full").containsExactly(512 * 1024, 1);
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
            ArrowMemoryListener wide = new ArrowMemoryListener(arrow, worker);
            try (BufferAllocator task = wide.newTaskAllocator("t2", 2 * MIB)) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> task.buffer(2 * MIB)).isInstanceOf(OutOfMemoryException.class);
                assertThat(System.nanoTime() - start).as("no wait: past the worker's memory even alone")
                        .isLessThan(MemoryReservation.CONTENTION_WAIT_NANOS / 2);
                assertThat(wide.workerWasFull()).as("too large for the worker alone: not a full worker").isFalse();
                CompletableFuture<Throwable> elsewhere = CompletableFuture.supplyAsync(() -> {
                    try (ArrowBuf buf = task.buffer(768 * 1024)) {
                        return null;
                    } catch (OutOfMemoryException e) {
                        return e;
                    }
                });
                assertThat(elsewhere.get(MemoryReservation.CONTENTION_WAIT_NANOS / 2, TimeUnit.NANOSECONDS))
                        .as("no wait on a thread that is not the task's").isInstanceOf(OutOfMemoryException.class);
                assertThat(wide.workerWasFull()).as("the worker's memory refused it, the task's limit had room").isTrue();
                assertThat(arrow.size()).isZero();
            }
            // 384 KiB is past this task's own 256 KiB and, with 512 KiB held, past the worker's 1 MiB too
            ArrowMemoryListener narrow = new ArrowMemoryListener(arrow, worker);
            try (BufferAllocator task = narrow.newTaskAllocator("t3", 256 * 1024); ArrowBuf first = task.buffer(128 * 1024);
                    ArrowBuf more = other.buffer(256 * 1024)) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> task.buffer(384 * 1024)).isInstanceOf(OutOfMemoryException.class);
                assertThat(System.nanoTime() - start).as("no wait: past the task's own limit")
                        .isLessThan(MemoryReservation.CONTENTION_WAIT_NANOS / 2);
                assertThat(narrow.workerWasFull()).as("too large for its own limit: not a full worker").isFalse();
                assertThat(arrow.size()).isEqualTo(128 * 1024);
            }
            assertThat(arrow.size()).isZero();
        }
        assertThat(budget.reserved()).isZero();
    }
}
