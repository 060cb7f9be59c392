package io.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.tpch.Agreement;
import io.sluice.tpch.TpchData;
import io.sluice.tpch.TpchQueries;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H at scale 0.01 through Spark's own Connect client against an embedded cluster: the 22
 * queries as DataFrame programs ({@link TpchDataFrames}) and the 22 in the specification's text
 * through {@code spark.sql}, each answer compared with DuckDB's for the text on the same files.
 */
class SparkConnectTpchIT {
    @TempDir
    static Path data;

    private static Session session;
    private static ConnectServer server;
    private static SparkSession spark;
    private static DuckDbOracle duck;
    /** Runs each query's DataFrame program while the test's thread runs its text. */
    private static final ExecutorService PROGRAMS = Executors.newSingleThreadExecutor();

    @BeforeAll
    static void start() throws Exception {
        TpchData tpch = TpchData.generate(data, 0.01);
        duck = new DuckDbOracle();
        session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(3));
        LocalCluster cluster = session.localCluster();
        server = ConnectServer.start(cluster.coordinator(), "127.0.0.1", 0, cluster.authSecret());
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000); // the client would retry a closed port for minutes
        }
        spark = SparkSession.builder().remote("sc://localhost:" + server.port() + "/;token=" + cluster.authSecret()).getOrCreate();
        for (Map.Entry<String, Path> table : tpch.tables().entrySet()) {
            String dir = table.getValue().toAbsolutePath().toString();
            duck.execute("CREATE VIEW " + table.getKey() + " AS SELECT * FROM read_parquet('" + dir + "/*.parquet')");
            spark.read().parquet(dir).createOrReplaceTempView(table.getKey());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        PROGRAMS.shutdownNow();
        for (AutoCloseable c : new AutoCloseable[] {spark, server, session, duck}) {
            if (c != null) {
                c.close();
            }
        }
    }

    static int[] queries() {
        return TpchQueries.all();
    }

    /**
     * The query's DataFrame program and its text through {@code spark.sql}, run at once (the cluster
     * serves both; the test takes half the time) and each compared with DuckDB's answer.
     */
    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void dataFrameProgramAndSparkSqlAgreeWithDuckDb(int query) throws Exception {
        String text = TpchQueries.text(query);
        Future<List<List<Object>>> program = PROGRAMS.submit(
                () -> TpchDataFrames.normalized(TpchDataFrames.query(spark, query).collectAsList()));
        List<List<Object>> sql = TpchDataFrames.normalized(spark.sql(text).collectAsList());
        List<List<Object>> expected = duck.query(TpchQueries.forPeer(text));
        assertThat(expected).as("q%d finds rows at this scale", query).isNotEmpty();
        assertAgrees("DataFrame program", query, program.get(60, TimeUnit.SECONDS), expected);
        assertAgrees("spark.sql", query, sql, expected);
    }

    private static void assertAgrees(String way, int query, List<List<Object>> actual, List<List<Object>> expected) {
        assertThat(Agreement.of(actual, expected, TpchQueries.text(query)))
                .as("q%d as %s: %s%nDuckDB: %s", query, way, actual, expected).startsWith("yes");
    }
}
