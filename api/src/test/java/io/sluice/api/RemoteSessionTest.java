package io.sluice.api;

import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.countStar;
import static io.sluice.api.Functions.lit;
import static io.sluice.api.Functions.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client session on a coordinator's HTTP endpoint: DataFrame plans travel in the versioned JSON plan format,
 * SQL as text, results come back as Arrow IPC, and errors as messages; without the cluster's
 * secret as a bearer token a request is refused.
 */
class RemoteSessionTest {
    @TempDir
    Path data;

    @Test
    void dataFramesAndSqlOverHttp() throws Exception {
        try (DuckDbOracle duck = new DuckDbOracle();
                Session cluster = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2).withHttpPort(0)))) {
            Path file = data.resolve("t.parquet");
            duck.execute("COPY (SELECT 'k' || (range % 5) AS k, CASE WHEN range % 9 = 0 THEN NULL ELSE range END AS v "
                    + "FROM range(5000)) TO '" + file + "' (FORMAT PARQUET)");
            int port = cluster.localCluster().coordinator().httpPort();
            String secret = cluster.localCluster().authSecret();
            try (Session remote = Session.connect("127.0.0.1", port, secret)) {
                DataFrame df = remote.read().parquet(file.toString())
                        .filter(col("v").gt(lit(100)))
                        .groupBy("k")
                        .agg(sum(col("v")).as("s"), countStar().as("c"))
                        .orderBy("k");
                assertThat(DuckDbOracle.normalize(df.collect())).isEqualTo(duck.query(
                        "SELECT k, sum(v) AS s, count(*) AS c FROM '" + file + "' WHERE v > 100 GROUP BY k ORDER BY k"));
                assertThat(df.explain()).contains("== Physical Plan ==");

                remote.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + file + "'");
                assertThat(DuckDbOracle.normalize(remote.sql("SELECT count(v) AS n FROM t").collect()))
                        .isEqualTo(duck.query("SELECT count(v) AS n FROM '" + file + "'"));
                assertThatThrownBy(() -> remote.sql("SELECT nope FROM t")).isInstanceOf(SluiceException.class)
                        .hasMessageContaining("nope");
                assertThat(remote.sql("SELECT count(*) AS c FROM t").collect().rows()).containsExactly(java.util.List.of(5000L));

                // SQL composes with the DataFrame API and writes over HTTP; the script's SET applies when it runs
                Path written = data.resolve("written");
                long rows = remote.sql("SET sluice.shuffle.partitions = 2; SELECT k, v FROM t").filter(col("v").isNotNull())
                        .write().parquet(written.toString());
                assertThat(java.util.List.of(java.util.List.<Object>of(rows)))
                        .isEqualTo(duck.query("SELECT count(v) FROM '" + file + "'"))
                        .isEqualTo(duck.query("SELECT count(*) FROM '" + written + "/*.parquet'"));
                remote.sql("CREATE TABLE per_k STORED AS CSV LOCATION '" + data.resolve("per_k") + "' AS "
                        + "SELECT k, count(*) AS c FROM t GROUP BY k");
                assertThat(DuckDbOracle.normalize(remote.sql("SELECT k, c FROM per_k ORDER BY k").collect()))
                        .isEqualTo(duck.query("SELECT k, count(*) AS c FROM '" + file + "' GROUP BY k ORDER BY k"));
            }
            // the HTTP port asks for the cluster's secret: none or a wrong one is refused before the body is read
            try (Session anonymous = Session.connect("127.0.0.1", port, null);
                    Session wrong = Session.connect("127.0.0.1", port, secret + "x")) {
                assertThatThrownBy(() -> anonymous.sql("SELECT count(*) AS c FROM t")).isInstanceOf(SluiceException.class)
                        .hasMessage("unauthorized: this cluster needs its secret as a bearer token (set SLUICE_AUTH_SECRET)");
                assertThatThrownBy(() -> wrong.sql("SELECT count(*) AS c FROM t")).isInstanceOf(SluiceException.class)
                        .hasMessage("unauthorized: wrong bearer token for this cluster");
            }
            assertThatThrownBy(() -> Session.connect("127.0.0.1", 1, secret).sql("SELECT 1"))
                    .isInstanceOf(SluiceException.class).hasMessageContaining("cannot reach the coordinator");
        }
    }
}
