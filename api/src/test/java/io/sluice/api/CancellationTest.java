package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job over its deadline is cancelled for real: the tasks running on the workers stop within
 * seconds (they check a cancel flag between batches), their slots are free again, their shuffle
 * files are gone, and the cluster answers the next query.
 */
class CancellationTest {
    @TempDir
    Path data;

    @Test
    void aJobPastItsDeadlineStopsItsRunningTasks() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withJobTimeout(Duration.ofSeconds(3)))) {
            Path table = data.resolve("t");
            Files.createDirectories(table);
            for (int f = 0; f < 4; f++) {
                duck.execute("COPY (SELECT range AS k FROM range(" + f * 15000 + ", " + (f + 1) * 15000 + ")) TO '"
                        + table.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
            }
            session.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + table + "'");
            LocalCluster cluster = session.localCluster();

            // 3.6 billion pairs: about a minute of work, far longer than the deadline
            long start = System.nanoTime();
            assertThatThrownBy(() -> session.sql("SELECT count(*) AS pairs FROM t a, t b WHERE a.k <> b.k").collect())
                    .isInstanceOf(SluiceException.class).hasMessageContaining("timed out");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));

            long deadline = System.currentTimeMillis() + 5_000;
            while ((activeTasks(cluster) > 0 || ClusterTesting.shuffleEntries(cluster) > 0) && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertThat(activeTasks(cluster)).as("tasks still running on the workers 5 s after the timeout").isZero();
            assertThat(ClusterTesting.shuffleEntries(cluster)).as("shuffle directories left on the workers").isZero();
            ClusterTesting.assertMemoryReleased(cluster);

            // A write past its deadline: its tasks had opened their files; the cancelled job removes them all.
            Path out = data.resolve("never");
            assertThatThrownBy(() -> session.sql("SELECT a.k AS x, b.k AS y FROM t a, t b WHERE a.k + b.k = 59999")
                    .write().parquet(out.toString())).isInstanceOf(SluiceException.class).hasMessageContaining("timed out");
            assertThat(Files.exists(out)).as("the target of the cancelled write").isFalse();
            // the write failed once every task reported its end; a slot's thread counts as active until
            // it is back in its pool, moments after its report (a bounded wait, far below a task's run)
            long reported = System.currentTimeMillis() + 1_000;
            while (activeTasks(cluster) > 0 && System.currentTimeMillis() < reported) {
                Thread.sleep(10);
            }
            assertThat(activeTasks(cluster)).as("tasks still running once the write failed").isZero();

            assertThat(DuckDbOracle.normalize(session.sql("SELECT count(*) AS c FROM t WHERE k % 3 = 0").collect()))
                    .isEqualTo(duck.query("SELECT count(*) AS c FROM range(0, 60000) r(k) WHERE k % 3 = 0"));
            ClusterTesting.awaitNoLeakedBuffers(session);
        }
    }

    private static int activeTasks(LocalCluster cluster) {
        return cluster.workers().stream().mapToInt(Worker::activeTasks).sum();
    }
}
