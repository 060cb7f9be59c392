package io.sluice.operators.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryPoolTest {
    @Test
    void reservationsGrowShrinkAndFreeWithinTheWorkerBudget() {
        MemoryBudget budget = new MemoryBudget("w1", 1000);
        TaskMemoryPool a = budget.newTaskPool("t1");
        TaskMemoryPool b = budget.newTaskPool("t2");
        MemoryReservation sort = a.register("SortExec: [k]", MemoryMetricsSink.NONE);
        MemoryReservation join = b.register("HashJoinExec build side", MemoryMetricsSink.NONE);

        assertThat(sort.tryGrow(600)).as("spillable growth: three quarters shared fairly, 375 a task").isFalse();
        assertThat(sort.tryGrow(375)).isTrue();
        assertThat(join.tryGrow(400)).isFalse();
        assertThat(join.size()).isZero();
        assertThat(join.tryGrow(300)).isTrue();
        join.grow(325);
        assertThat(budget.reserved()).as("growth that cannot spill may take the whole budget").isEqualTo(1000);

        sort.shrink(100);
        assertThat(sort.size()).isEqualTo(275);
        assertThat(sort.peak()).isEqualTo(375);
        assertThat(a.peak()).isEqualTo(375);
        sort.resize(300);
        assertThat(budget.reserved()).isEqualTo(925);
        assertThat(sort.tryResize(400)).isFalse();
        assertThat(sort.size()).isEqualTo(300);

        sort.close();
        assertThat(a.reserved()).isZero();
        assertThat(budget.reserved()).isEqualTo(625);
        a.close();
        assertThat(join.tryGrow(100)).as("alone, a task may use the whole spillable share").isTrue();
        b.close();
        assertThat(budget.reserved()).isZero();
        assertThat(budget.openPools()).isZero();
    }

    @Test
    void aTaskThatHoldsMuchLeavesTheOthersTheirFairShare() {
        MemoryBudget budget = new MemoryBudget("w1", 1200);
        try (TaskMemoryPool big = budget.newTaskPool("big")) {
            MemoryReservation first = big.register("sort", MemoryMetricsSink.NONE);
            assertThat(first.tryGrow(900)).as("alone: up to three quarters").isTrue();
            try (TaskMemoryPool late = budget.newTaskPool("late")) {
                MemoryReservation second = late.register("aggregate", MemoryMetricsSink.NONE);
                assertThat(first.tryGrow(1)).as("over its fair share now: it spills").isFalse();
                // the budget is what the first task holds: the late one is refused until that task spills
                assertThat(second.tryGrow(1)).isFalse();
                first.shrink(600);
                assertThat(second.tryGrow(450)).as("its fair share, 900 over two tasks").isTrue();
                assertThat(second.tryGrow(1)).isFalse();
            }
        }
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void arrowBuffersAreCountedButNeverRefused() {
        MemoryBudget budget = new MemoryBudget("w1", 100);
        try (TaskMemoryPool pool = budget.newTaskPool("t")) {
            MemoryReservation arrow = pool.register("Arrow buffers", MemoryMetricsSink.NONE);
            MemoryReservation sort = pool.register("sort", MemoryMetricsSink.NONE);
            arrow.forceGrow(150);
            assertThat(budget.reserved()).isEqualTo(150);
            assertThat(sort.tryGrow(1)).as("operators spill while Arrow buffers fill the budget").isFalse();
            arrow.shrink(150);
            assertThat(sort.tryGrow(75)).isTrue();
        }
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void aRefusedGrowNamesTheConsumerItsUsageAndTheLimit() {
        MemoryBudget budget = new MemoryBudget("w1", 4 << 20);
        try (TaskMemoryPool pool = budget.newTaskPool("job1-s2-p0")) {
            MemoryReservation r = pool.register("HashJoinExec: build=right build side", MemoryMetricsSink.NONE);
            r.grow(3 << 20);
            assertThatThrownBy(() -> r.grow(2 << 20))
                    .isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("HashJoinExec: build=right build side could not reserve 2.0 MiB more")
                    .hasMessageContaining("it holds 3.0 MiB")
                    .hasMessageContaining("task job1-s2-p0 holds 3.0 MiB")
                    .hasMessageContaining("sluice.worker.memory) is 4.0 MiB");
            assertThat(r.size()).isEqualTo(3 << 20);
        }
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void aGrowShortOnlyBecauseAnotherTaskHoldsMemoryWaitsForItToBeReleased() throws Exception {
        MemoryBudget budget = new MemoryBudget("w1", 1000);
        try (TaskMemoryPool merging = budget.newTaskPool("t1"); TaskMemoryPool reading = budget.newTaskPool("t2")) {
            MemoryReservation merge = merging.register("merge", MemoryMetricsSink.NONE);
            MemoryReservation arrow = reading.register("Arrow buffers", MemoryMetricsSink.NONE);
            arrow.forceGrow(1100);
            java.util.concurrent.CompletableFuture<Void> grown = java.util.concurrent.CompletableFuture.runAsync(() -> merge.grow(300));
            Thread.sleep(200);
            assertThat(grown).as("waits while the other task's buffers fill the worker").isNotDone();
            arrow.shrink(900);
            grown.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(merge.size()).isEqualTo(300);
            assertThat(budget.reserved()).isEqualTo(500);
        }
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void aGrowWaitsABoundedTimeAndAnInterruptEndsTheWait() throws Exception {
        MemoryBudget budget = new MemoryBudget("w1", 1000);
        try (TaskMemoryPool merging = budget.newTaskPool("t1"); TaskMemoryPool reading = budget.newTaskPool("t2")) {
            MemoryReservation merge = merging.register("merge", MemoryMetricsSink.NONE);
            reading.register("Arrow buffers", MemoryMetricsSink.NONE).forceGrow(1100);
            long start = System.nanoTime();
            assertThatThrownBy(() -> merge.grow(300)).isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("merge could not reserve 300 B more");
            assertThat(System.nanoTime() - start).as("gave up once the wait was over")
                    .isBetween(MemoryReservation.CONTENTION_WAIT_NANOS, 4 * MemoryReservation.CONTENTION_WAIT_NANOS);

            java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
            Thread waiting = new Thread(() -> {
                try {
                    merge.grow(300);
                } catch (RuntimeException e) {
                    failure.set(e);
                }
            });
            waiting.start();
            Thread.sleep(200);
            waiting.interrupt();
            waiting.join(2_000);
            assertThat(waiting.isAlive()).isFalse();
            assertThat(failure.get()).isInstanceOf(MemoryLimitException.class)
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(merge.size()).isZero();
        }
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void aGrowThatCouldNotFitEvenAloneFailsAtOnce() {
        MemoryBudget budget = new MemoryBudget("w1", 1000);
        try (TaskMemoryPool big = budget.newTaskPool("t1"); TaskMemoryPool other = budget.newTaskPool("t2")) {
            MemoryReservation build = big.register("build", MemoryMetricsSink.NONE);
            other.register("sort", MemoryMetricsSink.NONE).grow(100);
            build.grow(800);
            long start = System.nanoTime();
            assertThatThrownBy(() -> build.grow(300)).isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("build could not reserve 300 B more");
            assertThat(System.nanoTime() - start).as("no wait: the task alone is past the limit")
                    .isLessThan(MemoryReservation.CONTENTION_WAIT_NANOS / 2);
        }
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void closingAPoolFreesWhatItsOperatorsStillHold() {
        MemoryBudget budget = new MemoryBudget("w1", 1 << 20);
        TaskMemoryPool pool = budget.newTaskPool("t");
        pool.register("a", MemoryMetricsSink.NONE).grow(1000);
        pool.register("b", MemoryMetricsSink.NONE).grow(24);
        assertThat(pool.release()).isEqualTo(1024);
        assertThat(budget.reserved()).isZero();
        assertThat(budget.openPools()).isZero();
        assertThatThrownBy(() -> pool.register("c", MemoryMetricsSink.NONE)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void metricsSeeThePeakAndEachSpill() {
        long[] seen = new long[3];
        MemoryMetricsSink sink = new MemoryMetricsSink() {
            @Override
            public void peakMemory(long bytes) {
                seen[0] = bytes;
            }

            @Override
            public void spilled(long bytes, long nanos) {
                seen[1] += bytes;
                seen[2]++;
            }
        };
        try (TaskMemoryPool pool = MemoryBudget.unlimited().newTaskPool("t")) {
            MemoryReservation r = pool.register("sort", sink);
            r.grow(10);
            r.grow(20);
            r.shrink(25);
            r.grow(5);
            r.recordSpill(100, 1);
            r.recordSpill(50, 1);
        }
        assertThat(seen).containsExactly(30, 150, 2);
    }

    @Test
    void sizesParseAsPeopleWriteThem() {
        assertThat(Bytes.parse("x", "64m")).isEqualTo(64L << 20);
        assertThat(Bytes.parse("x", "2G")).isEqualTo(2L << 30);
        assertThat(Bytes.parse("x", "512kb")).isEqualTo(512L << 10);
        assertThat(Bytes.parse("x", "1000")).isEqualTo(1000);
        assertThatThrownBy(() -> Bytes.parse("sluice.worker.memory", "lots"))
                .hasMessageContaining("sluice.worker.memory must be a positive size such as 64m");
        assertThatThrownBy(() -> Bytes.parse("x", "0")).hasMessageContaining("positive");
    }
}
