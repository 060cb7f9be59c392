package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.logical.source.FileFormat;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.tpch.TpchData;
import io.sluice.tpch.TpchQueries;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TPC-H at scale 0.1 on a real HDFS: Hadoop's mini cluster ({@link MiniHdfs}: a NameNode and two
 * DataNodes in this JVM, on 127.0.0.1) holds the generated Parquet files, uploaded in 1 MB blocks;
 * the embedded Sluice cluster reads them through {@code hdfs://} with the HDFS client it ships, and
 * DuckDB reads the local copy they were uploaded from; each of the 22
 * answers must be DuckDB's. A CREATE TABLE ... AS writes to HDFS and reads back; a missing path
 * and an unreachable NameNode fail with an error naming the location, and the cluster serves on.
 */
class TpchHdfsIT {
    /** Small blocks, so that a table's files span several blocks and scan partitions name their hosts. */
    private static final long BLOCK_SIZE = 1024 * 1024;

    @TempDir
    static Path local;

    private static MiniHdfs hdfs;
    /** This test's own client of the mini cluster (Sluice's nodes have theirs). */
    private static FileSystem fs;
    private static String root;
    /** A NameNode address nothing listens on (allowed, so that the error is the connection's). */
    private static String unreachable;
    private static Session session;
    private static DuckDbOracle duck;

    @BeforeAll
    static void start() throws Exception {
        hdfs = MiniHdfs.start(local.resolve("hdfs"), 2);
        root = hdfs.uri() + "/tpch";
        Configuration conf = new Configuration();
        conf.setLong("dfs.blocksize", BLOCK_SIZE);
        conf.setInt("dfs.replication", 2);
        fs = FileSystem.newInstance(hdfs.uri(), conf);

        TpchData data = TpchData.generate(local.resolve("generated"), 0.1);
        duck = new DuckDbOracle();
        StringBuilder ddl = new StringBuilder();
        for (Map.Entry<String, Path> table : data.tables().entrySet()) {
            String name = table.getKey();
            org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(root + "/" + name);
            fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(table.getValue().toUri()), target);
            duck.execute("CREATE VIEW " + name + " AS SELECT * FROM read_parquet('" + table.getValue() + "/*.parquet')");
            ddl.append("CREATE EXTERNAL TABLE ").append(name).append(" STORED AS PARQUET LOCATION '").append(target)
                    .append("';\n");
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            unreachable = "hdfs://127.0.0.1:" + socket.getLocalPort();
        }
        session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4)
                .withAllowedRoots(List.of("/", hdfs.uri() + "/", unreachable + "/")));
        session.sql(ddl.toString());
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck, fs, hdfs);
    }

    @ParameterizedTest
    @ValueSource(strings = {"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14",
        "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    void sameResultsAsDuckDbOnTheLocalCopy(String name) throws Exception {
        String sql = TpchQueries.text(Integer.parseInt(name.substring(1)));
        List<List<Object>> expected = duck.query(TpchQueries.forPeer(sql));
        List<List<Object>> actual = DuckDbOracle.normalize(session.sql(sql).collect());
        assertThat(expected).as(name + " has an answer").isNotEmpty();
        if (sql.toLowerCase(Locale.ROOT).contains("order by")) {
            assertThat(actual).as(name).isEqualTo(expected);
        } else {
            assertThat(DuckDbOracle.sorted(actual)).as(name).isEqualTo(DuckDbOracle.sorted(expected));
        }
    }

    /** Row groups of files spread over several blocks carry the DataNodes holding their bytes. */
    @Test
    void scanPartitionsCarryTheirBlockHosts() {
        List<ScanPartition> partitions = FileFormats.reader(FileFormat.PARQUET).partitions(root + "/lineitem");
        assertThat(partitions).isNotEmpty();
        assertThat(partitions).allSatisfy(p -> assertThat(p.hosts()).as(p.toString()).isNotEmpty()
                .allSatisfy(h -> assertThat(h).isIn("127.0.0.1", "localhost")));
    }

    @Test
    void createTableAsSelectWritesToHdfsAndReadsBack() throws Exception {
        String target = root + "/out/revenue_by_flag";
        String select = "SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_extendedprice) AS revenue "
                + "FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus";
        session.sql("CREATE TABLE revenue_by_flag STORED AS PARQUET LOCATION '" + target + "' AS " + select);

        assertThat(fs.exists(new org.apache.hadoop.fs.Path(target + "/_SUCCESS"))).isTrue();
        assertThat(fs.exists(new org.apache.hadoop.fs.Path(target + "/_temporary"))).isFalse();
        long dataFiles = 0;
        for (FileStatus file : fs.listStatus(new org.apache.hadoop.fs.Path(target))) {
            dataFiles += file.getPath().getName().endsWith(".parquet") ? 1 : 0;
        }
        assertThat(dataFiles).isPositive();

        List<List<Object>> readBack = DuckDbOracle.normalize(session.sql(
                "SELECT l_returnflag, l_linestatus, n, revenue FROM revenue_by_flag").collect());
        assertThat(DuckDbOracle.sorted(readBack)).isEqualTo(DuckDbOracle.sorted(duck.query(select)));

        // an overwrite commits through the manifest, renamed over _SUCCESS atomically on HDFS
        session.sql("INSERT OVERWRITE revenue_by_flag SELECT l_returnflag, l_linestatus, n * 2, revenue "
                + "FROM revenue_by_flag").collect();
        try (java.io.InputStream in = fs.open(new org.apache.hadoop.fs.Path(target + "/_SUCCESS"))) {
            assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
                    .startsWith("# sluice commit manifest");
        }
        List<List<Object>> overwritten = DuckDbOracle.normalize(session.sql(
                "SELECT l_returnflag, l_linestatus, n, revenue FROM revenue_by_flag").collect());
        assertThat(DuckDbOracle.sorted(overwritten)).isEqualTo(DuckDbOracle.sorted(duck.query(
                "SELECT l_returnflag, l_linestatus, n * 2 AS n, revenue FROM (" + select + ")")));
    }

    @Test
    void missingPathIsAnErrorNamingItAndTheClusterServesOn() throws Exception {
        String missing = root + "/no_such_table";
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE ghost STORED AS PARQUET LOCATION '" + missing
                + "'").collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("not found")
                .hasMessageContaining(missing);
        assertServing();
    }

    @Test
    void unreachableNameNodeIsAnErrorNamingThePathAndTheClusterServesOn() throws Exception {
        String location = unreachable + "/tpch/nation";
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE far STORED AS PARQUET LOCATION '" + location
                + "'").collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining(location)
                .hasMessageContaining("Connection refused");
        assertServing();
    }

    private static void assertServing() throws Exception {
        assertThat(DuckDbOracle.normalize(session.sql("SELECT count(*) FROM nation").collect()))
                .isEqualTo(List.of(List.of(25L)));
    }
}
