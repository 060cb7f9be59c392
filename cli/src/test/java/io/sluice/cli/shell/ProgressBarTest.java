package io.sluice.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.QueryProgress;
import io.sluice.coordinator.RunningQueries;
import io.sluice.coordinator.scheduler.DagScheduler;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    private static final String JOBS = "[" + new RunningQueries.Info("q1", "job1", "other", 10,
            List.of(new DagScheduler.StageProgress(0, 1, 2)), "SELECT 1").toJson() + ","
            + new RunningQueries.Info("q2", "job2", "mine", 20, List.of(), "SELECT \"x\" FROM t").toJson() + "]";

    /** {@code GET /api/v1/queries/q2} as docs/monitoring.md shows it (fields the bar does not read included). */
    private static String detail(String state, String stage1, int done1, String stage2, int done2) {
        return "{\"id\":\"q2\",\"sql\":\"SELECT \\\"x\\\" FROM t\",\"state\":\"" + state + "\",\"startTime\":1,"
                + "\"endTime\":null,\"durationMs\":5,\"rows\":null,\"error\":null,\"plan\":\"...\",\"stages\":["
                + stage(0, "FINISHED", 4, 4) + "," + stage(1, stage1, 64, done1) + "," + stage(2, stage2, 8, done2) + ","
                + stage(3, "PENDING", 1, 0) + "],\"exchanges\":[]}";
    }

    private static String stage(int id, String state, int tasks, int done) {
        return "{\"id\":" + id + ",\"state\":\"" + state + "\",\"operators\":[\"Scan\"],\"parents\":[],\"tasks\":" + tasks
                + ",\"tasksCompleted\":" + done + ",\"tasksFailed\":0,\"tasksRunning\":1,\"rows\":7,\"bytes\":9,"
                + "\"inputRows\":null,\"spillBytes\":0,\"startTime\":null,\"endTime\":null}";
    }

    @Test
    void findsItsQueryByTagAndFollowsItsRunningStages() {
        assertThat(ProgressBar.idOf(JOBS, "mine")).hasValue("q2");
        assertThat(ProgressBar.idOf(JOBS, "gone")).isEmpty();
        QueryProgress query = QueryProgress.fromJson(detail("RUNNING", "RUNNING", 16, "RUNNING", 0));
        assertThat(query.running()).isTrue();
        List<DagScheduler.StageProgress> stages = query.runningStages();
        assertThat(stages).containsExactly(new DagScheduler.StageProgress(1, 16, 64),
                new DagScheduler.StageProgress(2, 0, 8));
        String line = ProgressBar.render(stages);
        // 40 columns a stage: a 23-column bar, a quarter of it filled
        assertThat(line).startsWith("[Stage 1:=====> ").contains("(16/64)][Stage 2:>").endsWith("(0/8)]");
        assertThat(line.length()).isLessThanOrEqualTo(80);
        assertThat(ProgressBar.render(List.of())).isEmpty();
    }

    @Test
    void redrawsOneLineWhileRunningAndClearsItAtTheEnd() throws Exception {
        StringWriter out = new StringWriter();
        Map<String, String> answers = new ConcurrentHashMap<>(Map.of("q2", detail("RUNNING", "RUNNING", 16, "RUNNING", 0)));
        try (ProgressBar bar = ProgressBar.start(() -> JOBS, id -> Optional.ofNullable(answers.get(id)), "mine",
                new PrintWriter(out), Duration.ofMillis(10))) {
            awaitDrawn(out, "(16/64)");
            // stage 1 finishes: only stage 2 is drawn
            answers.put("q2", detail("RUNNING", "FINISHED", 64, "RUNNING", 3));
            awaitDrawn(out, "(3/8)");
        }
        String drawn = out.toString();
        assertThat(drawn).startsWith("\r[Stage 1:").contains("(0/8)]").contains("\r[Stage 2:").doesNotContain("\n");
        assertThat(drawn).endsWith("\r");
        assertThat(drawn.chars().filter(c -> c == '[').count()).as("each line is drawn once while unchanged").isEqualTo(3);
    }

    @Test
    void aQueryThatEndedOrIsUnknownDrawsNothing() {
        StringWriter out = new StringWriter();
        ProgressBar ended = ProgressBar.start(() -> JOBS, id -> Optional.of(detail("FINISHED", "FINISHED", 64,
                "FINISHED", 8)), "mine", new PrintWriter(out), Duration.ofMillis(10));
        assertThat(ended.runningStages()).isEmpty();
        ended.close();
        ProgressBar unknown = ProgressBar.start(() -> JOBS, id -> Optional.empty(), "mine", new PrintWriter(out),
                Duration.ofMillis(10));
        assertThat(unknown.runningStages()).isEmpty();
        unknown.close();
        assertThat(out.toString()).isEmpty();
    }

    private static void awaitDrawn(StringWriter out, String text) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5_000;
        while (!out.toString().contains(text) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertThat(out.toString()).contains(text);
    }
}
