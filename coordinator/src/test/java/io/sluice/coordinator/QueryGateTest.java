package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class QueryGateTest {
    @Test
    void beyondTheLimitAQueryWaitsThenIsTurnedAwayBusy() throws Exception {
        QueryGate gate = new QueryGate(1, Duration.ofMillis(300));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CompletableFuture<QueryGate.Outcome<String>> first = CompletableFuture.supplyAsync(() -> gate.run(() -> {
            running.countDown();
            await(finish);
            return "first";
        }));
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        AtomicBoolean ran = new AtomicBoolean();
        long start = System.nanoTime();
        QueryGate.Outcome<String> second = gate.run(() -> {
            ran.set(true);
            return "second";
        });
        assertThat(second.busy()).isTrue();
        assertThat(ran).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));

        finish.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(new QueryGate.Outcome<>("first", false));
        assertThat(gate.run(() -> "third")).isEqualTo(new QueryGate.Outcome<>("third", false));
    }

    @Test
    void aWaitingQueryRunsWhenATurnFreesUpInTime() throws Exception {
        QueryGate gate = new QueryGate(1, Duration.ofSeconds(10));
        CountDownLatch running = new CountDownLatch(1);
        CompletableFuture<QueryGate.Outcome<String>> first = CompletableFuture.supplyAsync(() -> gate.run(() -> {
            running.countDown();
            sleep(200);
            return "first";
        }));
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(gate.run(() -> "queued")).isEqualTo(new QueryGate.Outcome<>("queued", false));
        assertThat(first.get(10, TimeUnit.SECONDS).busy()).isFalse();
    }

    @Test
    void aFailingQueryGivesItsTurnBack() {
        QueryGate gate = new QueryGate(1, Duration.ZERO);
        assertThatThrownBy(() -> gate.run(() -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(gate.run(() -> "next").busy()).isFalse();
        assertThatThrownBy(() -> new QueryGate(0, Duration.ZERO)).hasMessageContaining("at least 1");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
