package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.Coordinator;
import io.sluice.coordinator.CoordinatorSettings;
import io.sluice.datasource.FileAccessPolicy;
import io.sluice.kernels.QueryResult;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.worker.Worker;
import io.sluice.worker.WorkerSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator without workers says so on {@code /v1/health} and fails a query at once with a
 * message saying what to do, instead of letting it wait; once a worker joins, both change.
 */
class NoWorkersTest {
    @TempDir
    Path data;

    @Test
    void aQueryWithoutWorkersFailsFastAndHealthTellsTheLoad() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle()) {
            Path file = data.resolve("t.parquet");
            duck.execute("COPY (SELECT range AS k FROM range(0, 1000)) TO '" + file + "' (FORMAT PARQUET)");
            // the table lives in this test's temporary directory, outside the default root (the working directory)
            Coordinator coordinator = Coordinator.start(CoordinatorSettings.defaults("127.0.0.1", 0, 0)
                    .withFileAccess(FileAccessPolicy.under(java.util.List.of(data.toString()))));
            Worker worker = null;
            try {
                assertThat(health(coordinator)).isEqualTo(
                        "{\"status\":\"no workers\",\"workers\":0,\"slots\":0,\"free_slots\":0,\"running_tasks\":0,\"queued_tasks\":0,\"excluded_workers\":[]}");
                coordinator.runSql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + file + "'");

                long start = System.nanoTime();
                assertThatThrownBy(() -> coordinator.runSql("SELECT sum(k) AS s FROM t"))
                        .isInstanceOf(SluiceException.class).hasMessageContaining("no workers have joined the cluster");
                // Without the fail-fast the task would sit in the queue until a worker came, with no
                // bound; 20 s leaves room for a first query's planning on a loaded 2-core machine (a
                // 5 s bound failed twice at load 30-35).
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));

                worker = Worker.start(WorkerSettings.defaults("w1", "127.0.0.1", coordinator.clusterAddress(),
                        data.resolve("w1"))).awaitRegistered(Duration.ofSeconds(60));
                coordinator.awaitWorkers(1, Duration.ofSeconds(60));
                assertThat(health(coordinator)).isEqualTo(
                        "{\"status\":\"ok\",\"workers\":1,\"slots\":2,\"free_slots\":2,\"running_tasks\":0,\"queued_tasks\":0,\"excluded_workers\":[]}");
                assertThat(QueryResult.fromIpc(coordinator.runSql("SELECT sum(k) AS s FROM t")).rows())
                        .containsExactly(java.util.List.of(499_500L));
            } finally {
                ClusterTesting.closeAll(worker, coordinator);
            }
        }
    }

    private static String health(Coordinator coordinator) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/v1/health")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
