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
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
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
        for (AutoCloseable c : new AutoCloseable[] {spark, server, session, duck}) {
            if (c != null) {
                c.close();
            }
        }
    }

    static int[] queries() {
        return TpchQueries.all();
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void dataFrameProgramAgreesWithDuckDb(int query) throws Exception {
        assertAgrees(query, TpchDataFrames.query(spark, query));
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void sparkSqlAgreesWithDuckDb(int query) throws Exception {
        assertAgrees(query, spark.sql(TpchQueries.text(query)));
    }

    private static void assertAgrees(int query, Dataset<Row> df) throws Exception {
        String text = TpchQueries.text(query);
        List<List<Object>> expected = duck.query(TpchQueries.forPeer(text));
        List<List<Object>> actual = TpchDataFrames.normalized(df.collectAsList());
        assertThat(Agreement.of(actual, expected, text)).as("q%d: %s%nDuckDB: %s", query, actual, expected).startsWith("yes");
        assertThat(expected).as("q%d finds rows at this scale", query).isNotEmpty();
    }
}
