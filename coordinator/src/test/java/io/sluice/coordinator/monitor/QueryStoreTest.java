package io.sluice.coordinator.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The query store applied to events by hand: it keeps running queries and the last N finished,
 * counts a re-run partition once, and ignores events of jobs it does not know.
 */
class QueryStoreTest {
    private static final QueryEvent.StageInfo SCAN = new QueryEvent.StageInfo(0, List.of("Scan", "ShuffleWriterExec"),
            List.of(), 2, "hash");
    private static final QueryEvent.StageInfo RESULT = new QueryEvent.StageInfo(1, List.of("ShuffleReaderExec", "Agg"),
            List.of(0), 1, "single");

    @Test
    void keepsTheLastFinishedQueriesAndEveryRunningOne() {
        QueryStore store = new QueryStore(2, () -> 1000);
        store.onEvent(started("q1", "job1", 1));
        for (int q = 2; q <= 4; q++) {
            store.onEvent(started("q" + q, "job" + q, q));
            store.onEvent(new QueryEvent.QueryEnded("q" + q, "FINISHED", 1L, null, "plan", q + 10));
        }
        assertThat(store.list()).extracting(MonitorViews.QuerySummary::id).containsExactly("q4", "q3", "q1");
        assertThat(store.query("q1").orElseThrow().state()).isEqualTo("RUNNING");
        assertThat(store.query("q2")).isEmpty();
    }

    @Test
    void aPartitionRunAgainCountsOnceAndFailedAttemptsAreListed() {
        QueryStore store = new QueryStore(10, () -> 1000);
        store.onEvent(started("q1", "job1", 1));
        store.onEvent(new QueryEvent.StageSubmitted("job1", 0, List.of(0, 1), 2));
        store.onEvent(task("job1", 0, 0, "w1", 3));
        store.onEvent(ended("job1", 0, 0, "w1", "FAILED", null, "disk full", 4));
        store.onEvent(task("job1", 0, 1, "w1", 5));
        store.onEvent(ended("job1", 0, 1, "w1", "FINISHED", numbers(10), null, 6));
        store.onEvent(task("job1", 0, 0, "w2", 7));
        store.onEvent(ended("job1", 0, 0, "w2", "FINISHED", numbers(7), null, 8));
        // a recomputation of partition 1 (its output was lost) replaces its first run's numbers
        store.onEvent(task("job1", 0, 1, "w2", 9));
        store.onEvent(ended("job1", 0, 1, "w2", "FINISHED", numbers(10), null, 10));
        store.onEvent(new QueryEvent.StageCompleted("job1", 0, 11));
        store.onEvent(task("other-job", 0, 0, "w1", 12));
        MonitorViews.StageView scan = store.query("q1").orElseThrow().stages().get(0);
        assertThat(scan.state()).isEqualTo("FINISHED");
        assertThat(scan.rows()).isEqualTo(17);
        assertThat(scan.tasksCompleted()).isEqualTo(2);
        assertThat(scan.tasksFailed()).isEqualTo(1);
        assertThat(store.tasks("q1", 0).orElseThrow()).extracting(MonitorViews.TaskView::state)
                .containsExactly("FAILED", "FINISHED", "FINISHED", "FINISHED");
        assertThat(store.tasks("q1", 0).orElseThrow().get(0).error()).isEqualTo("disk full");
        assertThat(store.query("q1").orElseThrow().stages().get(1).state()).isEqualTo("PENDING");

        store.onEvent(new QueryEvent.StageSubmitted("job1", 1, List.of(0), 12));
        store.onEvent(task("job1", 1, 0, "w1", 13));
        store.onEvent(new QueryEvent.QueryEnded("q1", "CANCELLED", null, "cancelled: by a test", null, 14));
        MonitorViews.QueryDetail detail = store.query("q1").orElseThrow();
        assertThat(detail.state()).isEqualTo("CANCELLED");
        assertThat(detail.stages().get(1).state()).isEqualTo("FAILED");
        assertThat(store.tasks("q1", 1).orElseThrow().get(0).state()).isEqualTo("KILLED");
        assertThat(detail.exchanges()).containsExactly(new MonitorViews.ExchangeView(0, 1, 17, 170, "hash"));
    }

    private static QueryEvent started(String id, String job, long time) {
        return new QueryEvent.QueryStarted(id, job, "SELECT " + id, "plan", List.of(SCAN, RESULT), time, null);
    }

    private static QueryEvent task(String job, int stage, int partition, String worker, long time) {
        return new QueryEvent.TaskStarted(job, stage, partition, 0, worker, time);
    }

    private static QueryEvent ended(String job, int stage, int partition, String worker, String state,
            QueryEvent.TaskNumbers numbers, String error, long time) {
        return new QueryEvent.TaskEnded(job, stage, partition, 0, worker, state, numbers, error, false, time);
    }

    private static QueryEvent.TaskNumbers numbers(long rows) {
        return new QueryEvent.TaskNumbers(rows, rows * 10, 0, 0, 0, 0, 0, 1);
    }
}
