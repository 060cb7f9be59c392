package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shuffle-reading tasks get their block locations with the task: a stage launched after its
 * parents finished reads them without asking the coordinator, over real Artery and Netty between
 * two workers, and answers as DuckDB does. A reader of a partition the dispatcher did not foresee
 * (a union's second input) still asks, and still answers right.
 */
class MapOutputLocationsTest {
    @TempDir
    Path data;

    @Test
    void readingStagesAskNothingAndUnforeseenPartitionsStillAsk() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4))) {
            ClusterTesting.createKeyedCsvTable(duck, session, data);
            LocalCluster cluster = session.localCluster();

            // an aggregate joined back to its input, aggregated again and sorted: several reading stages
            String joined = "SELECT t.k, count(*) AS c, sum(t.v - m.lo) AS s FROM t "
                    + "JOIN (SELECT k, min(v) AS lo FROM t GROUP BY k) m ON t.k = m.k GROUP BY t.k ORDER BY t.k";
            String stages = ClusterTesting.explainedStages(session, joined);
            assertThat(stages.split("ShuffleReaderExec: ", -1)).as(stages).hasSizeGreaterThan(3);
            long before = cluster.coordinator().mapOutputAsks();
            assertThat(DuckDbOracle.normalize(session.sql(joined).collect())).isEqualTo(duck.query(joined));
            assertThat(cluster.coordinator().mapOutputAsks() - before).as("asks of a job whose stages start after their "
                    + "parents").isZero();

            String union = "SELECT k, sum(v) AS s FROM t GROUP BY k UNION ALL SELECT k, max(v) FROM t GROUP BY k";
            long beforeUnion = cluster.coordinator().mapOutputAsks();
            assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(session.sql(union).collect())))
                    .isEqualTo(DuckDbOracle.sorted(duck.query(union)));
            assertThat(cluster.coordinator().mapOutputAsks() - beforeUnion).as("a union's task p reads partition p - 4 "
                    + "of its second input: not sent, asked").isPositive();
        }
    }
}
