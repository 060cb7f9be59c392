package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job failing on bad input in one task cancels the rest, reports the bad row, leaves no shuffle
 * files behind on any worker, and the cluster answers the next query.
 */
class FailedJobCleanupTest {
    @TempDir
    Path data;

    @Test
    void aMalformedFileFailsTheJobCleanly() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4))) {
            Path good = data.resolve("good");
            Path bad = data.resolve("bad");
            Files.createDirectories(good);
            Files.createDirectories(bad);
            for (int f = 0; f < 12; f++) {
                duck.execute("COPY (SELECT 'k' || (range % 7) AS k, range AS v FROM range(" + f * 2000 + ", " + (f + 1) * 2000
                        + ")) TO '" + good.resolve("part-" + f + ".csv") + "' (FORMAT CSV, HEADER)");
                Files.copy(good.resolve("part-" + f + ".csv"), bad.resolve("part-" + f + ".csv"));
            }
            Files.writeString(bad.resolve("part-7.csv"), "k,v\nk1,1\nk2,not-a-number\n");
            session.sql("CREATE EXTERNAL TABLE good STORED AS CSV LOCATION '" + good + "';"
                    + "CREATE EXTERNAL TABLE bad STORED AS CSV LOCATION '" + bad + "'");

            assertThatThrownBy(() -> session.sql("SELECT k, sum(v) FROM bad GROUP BY k").collect())
                    .isInstanceOf(SluiceException.class).hasMessageContaining("part-7.csv").hasMessageContaining("not-a-number");

            LocalCluster cluster = session.localCluster();
            long deadline = System.currentTimeMillis() + 20_000;
            while ((ClusterTesting.shuffleEntries(cluster) > 0 || !ClusterTesting.memoryReleased(cluster))
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(ClusterTesting.shuffleEntries(cluster)).as("shuffle directories left on the workers").isZero();
            ClusterTesting.assertMemoryReleased(cluster);
            assertThat(DuckDbOracle.normalize(session.sql("SELECT count(*) AS c, sum(v) AS s FROM good").collect()))
                    .isEqualTo(duck.query("SELECT count(*) AS c, sum(v) AS s FROM read_csv_auto('" + good + "/*.csv')"));
            ClusterTesting.awaitNoLeakedBuffers(session);
        }
    }
}
