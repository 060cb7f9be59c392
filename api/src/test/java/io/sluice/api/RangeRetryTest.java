package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.operators.Partitioning;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker dies after the first join input's map stage of a sort-merge join finished, while the
 * second input's map stage runs: the lost outputs are recomputed, the answer equals DuckDB's, the
 * split points were sampled once, and every plan the scheduler handed out for either map stage
 * (first runs and recomputations, observed as submitted) partitions with the same recorded
 * boundaries.
 */
class RangeRetryTest {
    @TempDir
    Path data;

    /** One submission of a range map stage: which stage, which partitions, and the boundaries it carried. */
    private record Submission(int stageId, List<Integer> partitions, Partitioning.Range range) {
    }

    @Test
    void recomputedMapOutputsUseTheRecordedBoundaries() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4))) {
            Files.createDirectories(data.resolve("t"));
            Files.createDirectories(data.resolve("u"));
            for (int f = 0; f < 4; f++) {
                duck.execute("COPY (SELECT i % 3000 AS k, i AS v FROM range(" + f * 4_000 + ", " + (f + 1) * 4_000
                        + ") r(i)) TO '" + data.resolve("t/part-" + f + ".parquet") + "' (FORMAT PARQUET)");
                duck.execute("COPY (SELECT i % 4000 AS k, 'u' || (i % 13) AS tag FROM range(" + f * 12_000 + ", "
                        + (f + 1) * 12_000 + ") r(i)) TO '" + data.resolve("u/part-" + f + ".parquet") + "' (FORMAT PARQUET)");
            }
            duck.execute("CREATE VIEW t AS SELECT * FROM read_parquet('" + data + "/t/*.parquet')");
            duck.execute("CREATE VIEW u AS SELECT * FROM read_parquet('" + data + "/u/*.parquet')");
            session.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + data.resolve("t") + "';"
                    + "CREATE EXTERNAL TABLE u STORED AS PARQUET LOCATION '" + data.resolve("u") + "'");
            String sql = "SELECT t.k, count(*) AS c, sum(t.v) AS sv, min(u.tag) AS mt FROM t JOIN u ON t.k = u.k "
                    + "GROUP BY t.k ORDER BY t.k";
            String set = "SET sluice.join.broadcast-threshold = -1; SET sluice.join.sort-merge-threshold = 0; ";
            List<List<Object>> expected = duck.query(sql);

            LocalCluster cluster = session.localCluster();
            AtomicBoolean killed = new AtomicBoolean();
            List<Submission> submissions = new CopyOnWriteArrayList<>();
            List<Integer> samplings = new CopyOnWriteArrayList<>();
            DagScheduler.StageListener listener = new DagScheduler.StageListener() {
                @Override
                public void stageCompleted(String jobId, int stageId) {
                    if (stageId == 0 && killed.compareAndSet(false, true)) {
                        cluster.killWorker(1); // stage 0's outputs there are gone; stage 1 is still running
                    }
                }

                @Override
                public void stageSubmitted(String jobId, int stageId, ShuffleWriterExec plan, List<Integer> partitions) {
                    if (stageId >= DagScheduler.SAMPLE_STAGE_OFFSET) {
                        samplings.add(stageId);
                    } else if (plan.outputPartitioning() instanceof Partitioning.Range range) {
                        submissions.add(new Submission(stageId, partitions, range));
                    }
                }
            };
            cluster.coordinator().addStageListener(listener);
            try {
                assertThat(DuckDbOracle.normalize(session.sql(set + sql).collect())).isEqualTo(expected);
            } finally {
                cluster.coordinator().removeStageListener(listener);
            }
            assertThat(killed).isTrue();
            // both join inputs were sampled once, together, and never again
            assertThat(samplings).containsExactlyInAnyOrder(DagScheduler.SAMPLE_STAGE_OFFSET,
                    DagScheduler.SAMPLE_STAGE_OFFSET + 1);
            List<Integer> stages = new ArrayList<>(submissions.stream().map(Submission::stageId).distinct().toList());
            assertThat(stages).containsExactlyInAnyOrder(0, 1);
            assertThat(submissions.stream().filter(s -> s.stageId() == 0).count())
                    .as("stage 0 ran, then its lost outputs were recomputed: %s", submissions).isGreaterThanOrEqualTo(2);
            Partitioning.Range first = submissions.get(0).range();
            assertThat(first.splits().resolved()).isTrue();
            assertThat(first.splits().boundaries()).hasSize(3);
            for (Submission s : submissions) {
                assertThat(s.range().splits()).as("stage %d partitions %s", s.stageId(), s.partitions())
                        .isEqualTo(first.splits());
            }
        }
    }
}
