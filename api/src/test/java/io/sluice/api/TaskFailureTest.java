package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.worker.Worker;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tasks that fail or hang on a real embedded cluster: a task that fails every time fails its job
 * within {@code sluice.task.max-attempts} with its cause, a hanging one fails by
 * {@code sluice.task.timeout}, a worker whose tasks keep failing is excluded, and the cluster
 * answers the next query correctly each time.
 */
class TaskFailureTest {
    @TempDir
    Path data;

    /**
     * Every attempt runs past the task memory limit while writing its shuffle output (a system
     * failure, so it is retried, unlike a user error).
     */
    @Test
    void aTaskThatFailsEveryTimeFailsItsJobWithinTheAttemptLimit() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withTaskMemoryLimit(256 * 1024)
                        .withSetting("sluice.task.max-attempts", "3"))) {
            Path wide = Files.createDirectories(data.resolve("wide"));
            for (int f = 0; f < 4; f++) {
                duck.execute("COPY (SELECT range AS k, repeat('x', 200) || range AS s FROM range(" + f * 10000 + ", "
                        + (f + 1) * 10000 + ")) TO '" + wide.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
            }
            session.sql("CREATE EXTERNAL TABLE wide STORED AS PARQUET LOCATION '" + wide + "'");
            Path small = Files.createDirectories(data.resolve("small"));
            duck.execute("COPY (SELECT range AS k FROM range(0, 10)) TO '" + small.resolve("part-0.parquet")
                    + "' (FORMAT PARQUET)");
            session.sql("CREATE EXTERNAL TABLE small STORED AS PARQUET LOCATION '" + small + "'");

            long start = System.nanoTime();
            // four map tasks shuffle 10,000 distinct 200-byte keys each: a batch of them is past the limit
            assertThatThrownBy(() -> session.sql("SELECT count(*) AS n FROM (SELECT s FROM wide GROUP BY s) g").collect())
                    .isInstanceOf(SluiceException.class)
                    .hasMessageContaining("failed 3 times (sluice.task.max-attempts)")
                    .hasMessageContaining("memory");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));

            assertThat(DuckDbOracle.normalize(session.sql("SELECT sum(k) AS s FROM small").collect()))
                    .isEqualTo(duck.query("SELECT sum(range) AS s FROM range(0, 10)"));
            ClusterTesting.awaitNoLeakedBuffers(session);
        }
    }

    /**
     * One file of the table is a named pipe nobody writes: the task reading it blocks in open() and
     * cannot even see its cancel flag. Each attempt is given up after the timeout; the job fails
     * within seconds, the stuck attempts keep their slots until they end (when the pipe is
     * written), and then the slots are free and the next query runs.
     */
    @Test
    void aHangingTaskFailsByTimeout() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withSetting("sluice.task.timeout", "1s")
                        .withSetting("sluice.task.max-attempts", "2"))) {
            Path table = Files.createDirectories(data.resolve("h"));
            Files.writeString(table.resolve("part-0.csv"), "k\n1\n2\n");
            Path pipe = table.resolve("part-1.csv");
            Process mkfifo = new ProcessBuilder("mkfifo", pipe.toString()).inheritIO().start();
            assertThat(mkfifo.waitFor()).as("mkfifo exit status").isZero();
            session.sql("CREATE EXTERNAL TABLE h STORED AS CSV LOCATION '" + table + "'");
            LocalCluster cluster = session.localCluster();

            long start = System.nanoTime();
            assertThatThrownBy(() -> session.sql("SELECT count(*) AS c FROM h").collect()).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("failed 2 times (sluice.task.max-attempts)")
                    .hasMessageContaining("timed out after 1000 ms").hasMessageContaining("(sluice.task.timeout)");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(activeTasks(cluster)).as("attempts stuck in open()").isEqualTo(2);

            // opening the pipe read-write never blocks; closing it ends every blocked reader
            try (RandomAccessFile writer = new RandomAccessFile(pipe.toFile(), "rw")) {
                writer.write("k\n".getBytes(StandardCharsets.UTF_8));
            }
            long deadline = System.currentTimeMillis() + 5_000;
            while ((activeTasks(cluster) > 0 || cluster.coordinator().load().runningTasks() > 0)
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertThat(activeTasks(cluster)).as("tasks on the workers 5 s after the pipe was written").isZero();
            assertThat(cluster.coordinator().load().runningTasks()).isZero();

            Files.delete(pipe);
            assertThat(DuckDbOracle.normalize(session.sql("SELECT sum(k) AS s FROM h").collect()))
                    .isEqualTo(duck.query("SELECT 3::BIGINT AS s"));
        }
    }

    /**
     * Worker 1's shuffle root is replaced by a plain file, so every task it runs fails writing its
     * output. After two failures it is excluded, the failed tasks run on worker 2, and the answers
     * are right.
     */
    @Test
    void aWorkerWhoseTasksKeepFailingIsExcluded() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle(); Session session = Session.local(LocalCluster.Options.of(2))) {
            ClusterTesting.createKeyedCsvTable(duck, session, data);
            LocalCluster cluster = session.localCluster();
            Path root = cluster.workers().get(0).shuffleServer().rootDirectory();
            deleteTree(root);
            Files.writeString(root, "not a directory");
            try {
                String query = "SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k ORDER BY k";
                assertThat(DuckDbOracle.normalize(session.sql(query).collect())).isEqualTo(duck.query(query));
                assertThat(cluster.coordinator().load().excludedWorkers()).containsExactly("worker-1");
                assertThat(cluster.coordinator().load().toJson()).contains("\"excluded_workers\":[\"worker-1\"]");
                String second = "SELECT count(DISTINCT k) AS n FROM t";
                assertThat(DuckDbOracle.normalize(session.sql(second).collect())).isEqualTo(duck.query(second));
            } finally {
                Files.delete(root);
                Files.createDirectories(root);
            }
        }
    }

    private static int activeTasks(LocalCluster cluster) {
        return cluster.workers().stream().mapToInt(Worker::activeTasks).sum();
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
