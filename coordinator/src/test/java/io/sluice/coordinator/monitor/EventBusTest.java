package io.sluice.coordinator.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The event bus never makes a poster wait: a full queue drops and counts; a failing listener hurts no one. */
class EventBusTest {
    @Test
    void aFullQueueDropsAndCountsInsteadOfBlocking() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        List<QueryEvent> seen = new CopyOnWriteArrayList<>();
        try (EventBus bus = new EventBus(4)) {
            bus.addListener(event -> {
                entered.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                seen.add(event);
            });
            bus.post(stage(0));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            long start = System.nanoTime();
            for (int i = 1; i <= 100; i++) {
                bus.post(stage(i));
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1_000);
            assertThat(bus.dropped()).isEqualTo(96);
            release.countDown();
            assertThat(bus.drain(10_000)).isTrue();
            assertThat(seen).hasSize(5);
        }
    }

    @Test
    void aFailingListenerIsCountedAndTheOthersStillHearEveryEvent() {
        List<QueryEvent> seen = new CopyOnWriteArrayList<>();
        try (EventBus bus = new EventBus(100)) {
            bus.addListener(event -> {
                throw new IllegalStateException("listener bug");
            });
            bus.addListener(seen::add);
            for (int i = 0; i < 10; i++) {
                bus.post(stage(i));
            }
            assertThat(bus.drain(10_000)).isTrue();
            assertThat(seen).hasSize(10);
            assertThat(bus.listenerFailures()).isEqualTo(10);
        }
    }

    private static QueryEvent stage(int id) {
        return new QueryEvent.StageCompleted("job1", id, id);
    }
}
