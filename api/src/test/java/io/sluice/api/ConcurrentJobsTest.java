package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Queries submitted at the same time share the cluster's slots and each gets its own right answer. */
class ConcurrentJobsTest {
    @TempDir
    Path data;

    @Test
    void jobsSubmittedAtOnceAllFinishCorrectly() throws Exception {
        for (String mode : List.of("fifo", "fair")) {
            try (DuckDbOracle duck = new DuckDbOracle();
                    Session session = Session.local(LocalCluster.Options.of(2).withSetting("sluice.scheduler.mode", mode))) {
                Path table = data.resolve(mode);
                java.nio.file.Files.createDirectories(table);
                ClusterTesting.createKeyedCsvTable(duck, session, table);
                List<String> queries = List.of(
                        "SELECT k, sum(v) AS s FROM t GROUP BY k ORDER BY k",
                        "SELECT count(*) AS c FROM t a JOIN t b ON a.k = b.k WHERE a.v < 100",
                        "SELECT k, max(v) AS m FROM t WHERE v % 3 = 0 GROUP BY k ORDER BY m DESC LIMIT 5");
                ExecutorService clients = Executors.newFixedThreadPool(queries.size());
                try {
                    List<CompletableFuture<List<List<Object>>>> answers = queries.stream()
                            .map(q -> CompletableFuture.supplyAsync(() -> DuckDbOracle.normalize(session.sql(q).collect()), clients))
                            .toList();
                    for (int i = 0; i < queries.size(); i++) {
                        assertThat(answers.get(i).get(60, TimeUnit.SECONDS)).as(mode + ": " + queries.get(i))
                                .isEqualTo(duck.query(queries.get(i)));
                    }
                } finally {
                    clients.shutdownNow();
                }
                assertThat(session.runningQueries()).isEqualTo("[]");
                ClusterTesting.assertNoLeakedBuffers(session);
            }
        }
    }
}
