package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.PlanRequest;
import io.sluice.coordinator.QueryScope;
import io.sluice.coordinator.ResultStream;
import io.sluice.datasource.FileAccessPolicy;
import io.sluice.kernels.Batch;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Results stream from the coordinator as the result stage produces them: the first rows reach the
 * client while a result task is still held, a slow reader bounds what the coordinator buffers, a
 * million rows stream over HTTP as DuckDB computes them, {@code sluice.result.max-bytes} caps a
 * collect but not a stream, and a reader closing early cancels the query.
 */
class ResultStreamingTest {
    private static final int BIG_FILES = 8;
    private static final int BIG_ROWS = 1_000_000;

    @TempDir
    static Path data;
    private static Session session;
    private static Path big;

    @BeforeAll
    static void start() throws Exception {
        System.setProperty(FileAccessPolicy.SCHEMES_PROPERTY, FaultyFileSystem.SCHEME);
        try {
            session = Session.local(LocalCluster.Options.of(2).withSlotsPerWorker(2).withHttpPort(0)
                    .withAllowedRoots(List.of("/", FaultyFileSystem.SCHEME + ":///")));
        } finally {
            System.clearProperty(FileAccessPolicy.SCHEMES_PROPERTY);
        }
        big = data.resolve("big");
        Files.createDirectories(big);
        try (DuckDbOracle duck = new DuckDbOracle()) {
            int perFile = BIG_ROWS / BIG_FILES;
            for (int f = 0; f < BIG_FILES; f++) {
                duck.execute("COPY (SELECT range AS k, CAST(range % 1000 AS INTEGER) AS g, 'n' || (range % 9973) AS s"
                        + " FROM range(" + f * perFile + ", " + (f + 1) * perFile + ")) TO '"
                        + big.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
            }
        }
        session.sql("CREATE EXTERNAL TABLE big STORED AS PARQUET LOCATION '" + big + "'");
    }

    @AfterAll
    static void stop() throws InterruptedException {
        FaultyFileSystem.holdOpening(p -> false, new CountDownLatch(0));
        ClusterTesting.closeCheckingLeaks(session);
    }

    @Test
    void theFirstRowsArriveWhileTheLastResultTaskIsHeld() throws Exception {
        Path held = data.resolve("held");
        Files.createDirectories(held);
        for (int f = 0; f < 8; f++) {
            StringBuilder csv = new StringBuilder("a,b\n");
            for (int r = 0; r < 2000; r++) {
                csv.append(f * 2000 + r).append(',').append(r % 7).append('\n');
            }
            Files.writeString(held.resolve("part-" + f + ".csv"), csv);
        }
        session.sql("CREATE EXTERNAL TABLE held STORED AS CSV LOCATION '" + FaultyFileSystem.SCHEME + "://" + held + "'");
        CountDownLatch release = new CountDownLatch(1);
        // the scan task of the last file (the result stage's last partition) waits until released
        FaultyFileSystem.holdOpening(p -> p.getName().equals("part-7.csv"), release);
        try (RowIterator rows = session.sql("SELECT a, b FROM held").toLocalIterator()) {
            assertThat(rows.hasNext()).isTrue();
            assertThat(rows.next().get(0)).isEqualTo(0L);
            // the first row came before the release, so before the last task could end; that task may
            // not even have started yet (8 tasks on 4 slots): wait, bounded, until it is held
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (FaultyFileSystem.holding() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(FaultyFileSystem.holding()).as("the last result task is still held when the first row arrives "
                    + "(opens held so far: %d)", FaultyFileSystem.held()).isEqualTo(1);
            release.countDown();
            long count = 1;
            long sum = 0;
            while (rows.hasNext()) {
                sum += (Long) rows.next().get(0);
                count++;
            }
            assertThat(count).isEqualTo(16_000);
            assertThat(sum).isEqualTo(16_000L * 15_999 / 2);
        } finally {
            release.countDown();
            FaultyFileSystem.holdOpening(p -> false, new CountDownLatch(0));
        }
    }

    @Test
    void aSlowReaderBoundsWhatTheCoordinatorBuffers() throws Exception {
        LocalCluster cluster = session.localCluster();
        long buffer = 1L << 20;
        PlanRequest request = new PlanRequest(session.sql("SELECT k, g, s FROM big").logicalPlan(),
                Map.of("sluice.result.buffer-bytes", String.valueOf(buffer)), null);
        long total = 0;
        long rows = 0;
        long largestBatch = 0;
        try (ResultStream stream = cluster.coordinator().queries().open(request, QueryScope.NONE, false)) {
            try (Batch first = stream.next()) {
                rows += first.rowCount();
                total += bytes(first);
                largestBatch = bytes(first);
            }
            // a slow reader: meanwhile every result task finishes, and an unbounded fetcher would take it all
            Thread.sleep(1500);
            long held = cluster.coordinator().allocator().getAllocatedMemory();
            for (Batch next = stream.next(); next != null; next = stream.next()) {
                try (Batch batch = next) {
                    rows += batch.rowCount();
                    total += bytes(batch);
                    largestBatch = Math.max(largestBatch, bytes(batch));
                }
            }
            assertThat(rows).isEqualTo(BIG_ROWS);
            assertThat(stream.peakBufferedBytes()).as("bytes buffered ahead of the reader")
                    .isLessThanOrEqualTo(buffer + largestBatch);
            // the coordinator held the buffer plus at most the one block it was handing over (1/8 of the result)
            assertThat(held).as("coordinator memory while the reader paused, of %d streamed", total)
                    .isLessThan(total / 3);
            assertThat(total).isGreaterThan(10 * buffer);
        }
    }

    @Test
    void aQueryCancelledWhileItsReaderIsSlowStopsAfterTheBufferedBatches() throws Exception {
        LocalCluster cluster = session.localCluster();
        PlanRequest request = new PlanRequest(session.sql("SELECT k, g, s FROM big").logicalPlan(),
                Map.of("sluice.result.buffer-bytes", "1m"), null);
        try (ResultStream stream = cluster.coordinator().queries().open(request, QueryScope.NONE, false)) {
            stream.next().close();
            String id = cluster.coordinator().queries().running().list().get(0).id();
            assertThat(session.cancel(id)).isTrue();
            assertThatThrownBy(() -> {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    next.close();
                }
            }).isInstanceOf(SluiceException.class).hasMessageContaining("was cancelled");
            long deadline = System.currentTimeMillis() + 5000;
            while (!session.runningQueries().equals("[]") && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertThat(session.runningQueries()).isEqualTo("[]");
        }
    }

    @Test
    void aMillionRowsStreamOverHttpAsDuckDbComputesThemAndOnlyCollectIsCapped() throws Exception {
        LocalCluster cluster = session.localCluster();
        // no ORDER BY: the scan's partitions are the files in order, so partition order is k's order
        String query = "SELECT k, g, s, k * 3 AS t FROM big WHERE g <> 7";
        try (Session remote = Session.connect("127.0.0.1", cluster.coordinator().httpPort(), cluster.authSecret());
                DuckDbOracle duck = new DuckDbOracle();
                Statement statement = duck.connection().createStatement();
                ResultSet expected = statement.executeQuery(query.replace("FROM big",
                        "FROM read_parquet('" + big + "/*.parquet')") + " ORDER BY k")) {
            DataFrame frame = remote.sql("SET sluice.result.max-bytes = 1m; " + query);
            long rows = 0;
            try (RowIterator actual = frame.toLocalIterator()) {
                while (actual.hasNext()) {
                    List<Object> row = actual.next();
                    assertThat(expected.next()).as("DuckDB has row %d", rows).isTrue();
                    List<Object> want = new ArrayList<>();
                    for (int c = 1; c <= 4; c++) {
                        want.add(DuckDbOracle.normalize(expected.getObject(c)));
                    }
                    List<Object> got = row.stream().map(DuckDbOracle::normalize).toList();
                    if (!got.equals(want)) {
                        assertThat(got).as("row %d", rows).isEqualTo(want);
                    }
                    rows++;
                }
                assertThat(actual.batchesRead()).isGreaterThan(10);
            }
            assertThat(expected.next()).as("DuckDB has no more rows").isFalse();
            assertThat(rows).isEqualTo(BIG_ROWS - BIG_ROWS / 1000);
            // the same result collected is over the 1 MiB cap
            assertThatThrownBy(frame::collect).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("sluice.result.max-bytes");
        }
    }

    @Test
    void aReaderClosingEarlyCancelsTheQueryAndFreesItsShuffleFiles() throws Exception {
        LocalCluster cluster = session.localCluster();
        try (Session remote = Session.connect("127.0.0.1", cluster.coordinator().httpPort(), cluster.authSecret())) {
            try (RowIterator rows = remote.sql("SELECT k, g, s FROM big").toLocalIterator()) {
                assertThat(rows.hasNext()).isTrue();
                rows.next();
                assertThat(session.runningQueries()).as("the query runs while its stream is read").contains("\"q");
            }
            long deadline = System.currentTimeMillis() + 5000;
            while ((!session.runningQueries().equals("[]") || ClusterTesting.shuffleEntries(cluster) > 0)
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertThat(session.runningQueries()).isEqualTo("[]");
            assertThat(ClusterTesting.shuffleEntries(cluster)).isZero();
        }
    }

    private static long bytes(Batch batch) {
        return batch.root().getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum();
    }
}
