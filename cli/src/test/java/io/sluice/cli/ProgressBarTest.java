package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.RunningQueries;
import io.sluice.coordinator.scheduler.DagScheduler;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    private static final String JOBS = "[" + new RunningQueries.Info("q1", "job1", "other", 10,
            List.of(new DagScheduler.StageProgress(0, 1, 2)), "SELECT 1").toJson() + ","
            + new RunningQueries.Info("q2", "job2", "mine", 20, List.of(new DagScheduler.StageProgress(1, 16, 64),
                    new DagScheduler.StageProgress(2, 0, 8)), "SELECT \"x\" FROM t").toJson() + "]";

    @Test
    void findsItsQueryByTagAndDrawsABarPerStage() {
        List<DagScheduler.StageProgress> stages = ProgressBar.stagesOf(JOBS, "mine");
        assertThat(stages).containsExactly(new DagScheduler.StageProgress(1, 16, 64),
                new DagScheduler.StageProgress(2, 0, 8));
        assertThat(ProgressBar.stagesOf(JOBS, "gone")).isEmpty();
        String line = ProgressBar.render(stages);
        // 40 columns a stage: a 23-column bar, a quarter of it filled
        assertThat(line).startsWith("[Stage 1:=====> ").contains("(16/64)][Stage 2:>").endsWith("(0/8)]");
        assertThat(line.length()).isLessThanOrEqualTo(80);
        assertThat(ProgressBar.render(List.of())).isEmpty();
    }

    @Test
    void redrawsOneLineWhileRunningAndClearsItAtTheEnd() throws Exception {
        StringWriter out = new StringWriter();
        try (ProgressBar bar = ProgressBar.start(() -> JOBS, "mine", new PrintWriter(out), Duration.ofMillis(10))) {
            long deadline = System.currentTimeMillis() + 5_000;
            while (!out.toString().contains("(16/64)") && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
        }
        String drawn = out.toString();
        assertThat(drawn).startsWith("\r[Stage 1:").contains("(0/8)]").doesNotContain("\n");
        assertThat(drawn).endsWith("\r");
        assertThat(drawn.chars().filter(c -> c == '[').count()).as("the line is drawn once while unchanged").isEqualTo(2);
    }
}
