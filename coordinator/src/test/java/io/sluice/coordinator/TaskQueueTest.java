package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Queued tasks named "job/n": the order each scheduling mode serves them in. */
class TaskQueueTest {
    @Test
    void fifoServesInArrivalOrderWithRetriesFirst() {
        TaskQueue<String> queue = new TaskQueue<>(SchedulingMode.FIFO, TaskQueueTest::job);
        queue.add("a/1");
        queue.add("a/2");
        queue.add("b/1");
        queue.addFirst("b/0");
        assertThat(drainInServiceOrder(queue)).containsExactly("b/0", "a/1", "a/2", "b/1");
    }

    /** A short job queued behind a long one goes next, since it has nothing running. */
    @Test
    void fairServesTheJobWithFewestRunningAttemptsFirst() {
        TaskQueue<String> queue = new TaskQueue<>(SchedulingMode.FAIR, TaskQueueTest::job);
        for (int i = 1; i <= 4; i++) {
            queue.add("long/" + i);
        }
        queue.started("long");
        queue.started("long");
        queue.add("short/1");
        assertThat(queue.peek()).isEqualTo("short/1");
        assertThat(queue.poll()).isEqualTo("short/1");
        queue.started("short");
        assertThat(queue.poll()).isEqualTo("long/1");
        queue.ended("long");
        queue.ended("long");
        queue.addFirst("short/0");
        // nothing of "long" runs now, one of "short": long goes
        assertThat(queue.poll()).isEqualTo("long/2");
        queue.started("long");
        // one running each: the job that had the last turn waits
        assertThat(queue.poll()).isEqualTo("short/0");
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.drain()).containsExactly("long/3", "long/4");
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.peek()).isNull();
    }

    /** A task waiting for a slot on its hosts is passed over and keeps its place; in fair mode a job with none ready is passed over. */
    @Test
    void tasksThatCannotStartKeepTheirPlaces() {
        for (SchedulingMode mode : SchedulingMode.values()) {
            TaskQueue<String> queue = new TaskQueue<>(mode, TaskQueueTest::job);
            queue.add("a/waits");
            queue.add("a/1");
            queue.add("b/waits");
            queue.add("b/1");
            assertThat(queue.poll(t -> !t.endsWith("waits"))).as(mode.name()).isEqualTo("a/1");
            assertThat(queue.poll(t -> t.startsWith("b/1"))).as(mode.name()).isEqualTo("b/1");
            assertThat(queue.poll(t -> false)).as(mode.name()).isNull();
            assertThat(queue.size()).as(mode.name()).isEqualTo(2);
            assertThat(drainInServiceOrder(queue)).as(mode.name()).containsExactly("a/waits", "b/waits");
        }
    }

    private static List<String> drainInServiceOrder(TaskQueue<String> queue) {
        List<String> out = new ArrayList<>();
        while (!queue.isEmpty()) {
            assertThat(queue.peek()).isEqualTo(queue.peek());
            out.add(queue.poll());
        }
        return out;
    }

    private static String job(String task) {
        return task.substring(0, task.indexOf('/'));
    }
}
