package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.coordinator.scheduler.DagScheduler.StageProgress;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON answers of {@code GET /v1/health} and {@code GET /v1/jobs}: their exact shape, which clients parse. */
class HttpJsonTest {
    @Test
    void healthHasItsStatusFirstAndSnakeCaseCounts() {
        assertThat(new ClusterLoad(0, 0, 0, 0, 0, List.of()).toJson()).isEqualTo("{\"status\":\"no workers\",\"workers\":0,"
                + "\"slots\":0,\"free_slots\":0,\"running_tasks\":0,\"queued_tasks\":0,\"excluded_workers\":[]}");
        assertThat(new ClusterLoad(2, 8, 3, 5, 1, List.of("worker-1", "w\"2")).toJson()).isEqualTo("{\"status\":\"ok\","
                + "\"workers\":2,\"slots\":8,\"free_slots\":3,\"running_tasks\":5,\"queued_tasks\":1,"
                + "\"excluded_workers\":[\"worker-1\",\"w\\\"2\"]}");
    }

    @Test
    void aListingIsWrittenInItsFieldOrderAndReadBack() {
        RunningQueries.Info waiting = new RunningQueries.Info("q1", null, null, 7, List.of(), "SELECT 1");
        RunningQueries.Info running = new RunningQueries.Info("q2", "job-2", "mine", 1234,
                List.of(new StageProgress(1, 16, 64), new StageProgress(2, 0, 8)), "SELECT \"x\\y\"\n\tFROM t");
        assertThat(waiting.toJson()).isEqualTo(
                "{\"id\":\"q1\",\"job\":\"\",\"tag\":\"\",\"elapsed_ms\":7,\"stages\":[],\"query\":\"SELECT 1\"}");
        assertThat(running.toJson()).isEqualTo("{\"id\":\"q2\",\"job\":\"job-2\",\"tag\":\"mine\",\"elapsed_ms\":1234,"
                + "\"stages\":[{\"stage\":1,\"done\":16,\"total\":64},{\"stage\":2,\"done\":0,\"total\":8}],"
                + "\"query\":\"SELECT \\\"x\\\\y\\\"\\n\\tFROM t\"}");

        String listing = "[" + waiting.toJson() + "," + running.toJson() + "]";
        assertThat(RunningQueries.fromJson(listing)).containsExactly(waiting, running);
        assertThat(RunningQueries.fromJson("[]")).isEmpty();
    }

    @Test
    void aListingFromANewerCoordinatorKeepsWhatItKnows() {
        assertThat(RunningQueries.fromJson("[{\"id\":\"q1\",\"job\":\"j\",\"tag\":\"t\",\"elapsed_ms\":1,"
                + "\"stages\":[{\"stage\":0,\"done\":1,\"total\":2,\"bytes\":9}],\"query\":\"q\",\"user\":\"u\"}]"))
                .containsExactly(new RunningQueries.Info("q1", "j", "t", 1, List.of(new StageProgress(0, 1, 2)), "q"));
    }

    @Test
    void anAnswerThatIsNoListingIsAnError() {
        assertThatThrownBy(() -> RunningQueries.fromJson("unauthorized: wrong bearer token"))
                .isInstanceOf(UncheckedIOException.class);
    }
}
