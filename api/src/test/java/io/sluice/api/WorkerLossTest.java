package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker dies in the middle of a job, after its map outputs were written and before they were
 * read: the reduce tasks' failed fetches make the scheduler recompute the lost map outputs on the
 * surviving worker (within the same job), the job gives the right answer, and the cluster keeps
 * serving. Also when the lost outputs are a shared stage's that several consumer stages read (a
 * WITH query aggregated once and read by three differently filtered consumers).
 */
class WorkerLossTest {
    @TempDir
    Path data;

    @Test
    void jobSurvivesLosingAWorkerBetweenStages() throws Exception {
        survivesLosingAWorkerAfterTheFirstStage("SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k ORDER BY k", 1);
    }

    @Test
    void jobSurvivesLosingTheOutputOfAStageThatThreeConsumerStagesRead() throws Exception {
        survivesLosingAWorkerAfterTheFirstStage("WITH g AS (SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k) "
                + "SELECT 'a' AS w, sum(s), count(*) FROM g WHERE k = 'k3' "
                + "UNION ALL SELECT 'b', sum(s), count(*) FROM g WHERE k < 'k5' AND c > 10 "
                + "UNION ALL SELECT 'c', sum(s), count(*) FROM g WHERE s > 1000 ORDER BY 1", 3);
    }

    /** {@code readers}: how many stages read the first stage's shuffle (EXPLAIN's stages). */
    private void survivesLosingAWorkerAfterTheFirstStage(String sql, int readers) throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4))) {
            ClusterTesting.createKeyedCsvTable(duck, session, data);
            List<List<Object>> expected = duck.query(sql);
            String stages = ClusterTesting.explainedStages(session, sql);
            assertThat(stages.split("ShuffleReaderExec: shuffle=explain-s0 ", -1)).as(stages).hasSize(readers + 1);

            LocalCluster cluster = session.localCluster();
            AtomicBoolean killed = new AtomicBoolean();
            java.util.Set<String> jobs = java.util.concurrent.ConcurrentHashMap.newKeySet();
            DagScheduler.StageListener killAfterMapStage = (jobId, stageId) -> {
                jobs.add(jobId);
                if (stageId == 0 && killed.compareAndSet(false, true)) {
                    cluster.killWorker(1); // its map outputs are gone now
                }
            };
            cluster.coordinator().addStageListener(killAfterMapStage);
            try {
                assertThat(DuckDbOracle.normalize(session.sql(sql).collect())).isEqualTo(expected);
            } finally {
                cluster.coordinator().removeStageListener(killAfterMapStage);
            }
            assertThat(killed).isTrue();
            // Recomputed from lineage within the same job, not by running the job again.
            assertThat(jobs).hasSize(1);
            long deadline = System.currentTimeMillis() + 30_000;
            while (cluster.coordinator().workers().size() > 1 && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(cluster.coordinator().workers()).containsOnlyKeys("worker-1");
            assertThat(DuckDbOracle.normalize(session.sql(sql).collect())).isEqualTo(expected);
        }
    }
}
