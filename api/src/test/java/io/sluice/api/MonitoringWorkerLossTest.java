package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.coordinator.monitor.MonitorViews;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker dies after the map stage wrote its outputs: the monitoring store shows the query
 * finished with the right rows, the map stage's lost partitions run again (more attempts than
 * tasks, the re-runs on the surviving worker) and the dead worker as LOST.
 */
class MonitoringWorkerLossTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path data;

    @Test
    void aLostWorkersRecomputedPartitionsShowAsMoreAttempts() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4))) {
            ClusterTesting.createKeyedCsvTable(duck, session, data);
            String sql = "SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k ORDER BY k";
            List<List<Object>> expected = duck.query(sql);
            LocalCluster cluster = session.localCluster();
            AtomicBoolean killed = new AtomicBoolean();
            DagScheduler.StageListener killAfterMapStage = (jobId, stageId) -> {
                if (stageId == 0 && killed.compareAndSet(false, true)) {
                    cluster.killWorker(1);
                }
            };
            cluster.coordinator().addStageListener(killAfterMapStage);
            try {
                assertThat(DuckDbOracle.normalize(session.sql(sql, "loss"))).isEqualTo(expected);
            } finally {
                cluster.coordinator().removeStageListener(killAfterMapStage);
            }
            assertThat(killed).isTrue();

            String id = null;
            for (MonitorViews.QuerySummary q : cluster.coordinator().monitoredQueries().list()) {
                if (sql.equals(q.sql())) {
                    id = q.id();
                }
            }
            assertThat(id).isNotNull();
            long deadline = System.currentTimeMillis() + 10_000;
            while (cluster.coordinator().monitoredQueries().query(id).orElseThrow().state().equals("RUNNING")
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            JsonNode detail = JSON.readTree(JSON.writeValueAsString(cluster.coordinator().monitoredQueries().query(id)
                    .orElseThrow()));
            assertThat(detail.get("state").asText()).isEqualTo("FINISHED");
            assertThat(detail.get("rows").asLong()).isEqualTo(expected.size());
            JsonNode map = detail.get("stages").get(0);
            List<MonitorViews.TaskView> attempts = cluster.coordinator().monitoredQueries().tasks(id, 0).orElseThrow();
            assertThat(attempts.size()).as("map attempts, recomputations included").isGreaterThan(map.get("tasks").asInt());
            Set<String> rerunOn = new HashSet<>();
            Set<Integer> partitions = new HashSet<>();
            for (MonitorViews.TaskView attempt : attempts) {
                if (!partitions.add(attempt.partition())) {
                    rerunOn.add(attempt.worker());
                }
            }
            assertThat(rerunOn).hasSize(1);
            assertThat(map.get("tasksCompleted").asInt()).isEqualTo(map.get("tasks").asInt());
            // each of the 4 map tasks (one per CSV file) aggregates its rows into the 17 keys before the shuffle
            assertThat(map.get("rows").asLong()).isEqualTo(4 * 17);

            deadline = System.currentTimeMillis() + 30_000;
            while (cluster.coordinator().workers().size() > 1 && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(cluster.coordinator().workerViews()).extracting(MonitorViews.WorkerView::state)
                    .containsExactlyInAnyOrder("UP", "LOST");
        }
    }
}
