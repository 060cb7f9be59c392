package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.shuffle.ShuffleClient;
import io.sluice.shuffle.ShuffleFetchException;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.worker.Worker;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shuffle service inside an embedded cluster. A map output is corrupted on disk after its
 * stage finished (one byte flipped): the reducer that reads it fails its checksum, the scheduler
 * recomputes that output within the same job while both workers stay up, and the query gives the
 * right answer. The job's task results carry their shuffle metrics. The workers' shuffle servers
 * refuse a client that does not know the session's secret.
 */
class EmbeddedShuffleTest {
    @TempDir
    Path data;

    @Test
    void corruptMapOutputIsRecomputedAndStrangersAreRefused() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4))) {
            ClusterTesting.createKeyedCsvTable(duck, session, data);
            String sql = "SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k ORDER BY k";
            List<List<Object>> expected = duck.query(sql);

            LocalCluster cluster = session.localCluster();
            AtomicReference<Path> corrupted = new AtomicReference<>();
            Set<String> jobs = ConcurrentHashMap.newKeySet();
            DagScheduler.StageListener corruptAfterMapStage = (jobId, stageId) -> {
                jobs.add(jobId);
                if (stageId == 0 && corrupted.get() == null) {
                    corrupted.set(flipAByteOfAMapOutput(cluster.workers(), jobId + "-s0"));
                }
            };
            cluster.coordinator().addStageListener(corruptAfterMapStage);
            try {
                assertThat(DuckDbOracle.normalize(session.sql(sql).collect())).isEqualTo(expected);
            } finally {
                cluster.coordinator().removeStageListener(corruptAfterMapStage);
            }
            assertThat(corrupted.get()).as("a map output was corrupted").isNotNull();
            assertThat(jobs).as("recovered within the job, not by running it again").hasSize(1);
            assertThat(cluster.coordinator().workers()).hasSize(2);
            // Task results carry shuffle metrics: rows written and read, both local and remote bytes.
            TaskMetrics metrics = cluster.coordinator().jobMetrics().get(jobs.iterator().next());
            assertThat(metrics.recordsWritten()).isGreaterThan(17);
            assertThat(metrics.recordsRead()).isGreaterThan(17);
            assertThat(metrics.localBytesRead()).isPositive();
            assertThat(metrics.remoteBytesRead()).isPositive();
            assertThat(metrics.taskNanos()).isGreaterThan(metrics.fetchWaitNanos());

            int port = cluster.workers().get(0).shuffleServer().port();
            try (ShuffleClient stranger = new ShuffleClient("stranger");
                    BufferAllocator allocator = new RootAllocator()) {
                assertThatThrownBy(() -> stranger.fetchBatches("127.0.0.1", port, "job1", "job1-s0", 0, 0, 8, allocator))
                        .isInstanceOf(ShuffleFetchException.class)
                        .hasMessageContaining("requires authentication");
            }
        }
    }

    /** Flips a byte in the middle of the first map output data file of {@code shuffleId}; returns the file. */
    private static Path flipAByteOfAMapOutput(List<Worker> workers, String shuffleId) {
        try {
            for (Worker worker : workers) {
                Path dir = worker.shuffleServer().rootDirectory().resolve(shuffleId);
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".data")).sorted().toList()) {
                        long size = Files.size(file);
                        if (size == 0) {
                            continue;
                        }
                        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ,
                                StandardOpenOption.WRITE)) {
                            ByteBuffer one = ByteBuffer.allocate(1);
                            channel.read(one, size / 2);
                            one.put(0, (byte) (one.get(0) ^ 0x5a)).rewind();
                            channel.write(one, size / 2);
                        }
                        return file;
                    }
                }
            }
            return null;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
