package io.sluice.connect;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.testfixtures.DuckDbOracle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkArithmeticException;
import org.apache.spark.SparkNumberFormatException;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark's own Connect client (spark-connect-client-jvm 4.2.0) against an embedded cluster's Spark
 * Connect endpoint on 127.0.0.1: SQL, reads, the DataFrame operations it sends as relations,
 * {@code show()}, {@code createDataFrame}, {@code spark.conf}, errors; answers compared with DuckDB's
 * on the same Parquet file.
 */
class SparkConnectIT {
    private static Session session;
    private static ConnectServer server;
    private static SparkSession spark;
    private static DuckDbOracle duck;
    private static Path dir;
    private static String parquet;
    private static String secret;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("sluice-connect-it");
        duck = new DuckDbOracle();
        duck.execute("CREATE TABLE t AS SELECT (i % 7)::INTEGER AS k, 'n' || (i % 13) AS name, (i * 1.5)::DOUBLE AS v"
                + " FROM range(0, 2000) r(i)");
        parquet = dir.resolve("t.parquet").toString();
        duck.writeParquet("SELECT * FROM t", Path.of(parquet), 500);
        session = Session.local(LocalCluster.Options.of(2));
        LocalCluster cluster = session.localCluster();
        secret = cluster.authSecret();
        server = ConnectServer.start(cluster.coordinator(), "127.0.0.1", 0, secret);
        assertListening(server.port());
        spark = SparkSession.builder().remote("sc://localhost:" + server.port() + "/;token=" + secret).getOrCreate();
    }

    /** Spark's client retries a closed port for minutes: fail at once instead. */
    private static void assertListening(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (spark != null) {
            spark.close();
        }
        if (server != null) {
            server.close();
        }
        if (session != null) {
            session.close();
        }
        if (duck != null) {
            duck.close();
        }
    }

    @Test
    void sqlConstant() {
        List<Row> rows = spark.sql("SELECT 1 + 1 AS two, 'x' AS s").collectAsList();
        assertThat(rows).hasSize(1);
        assertThat(((Number) rows.get(0).get(0)).longValue()).isEqualTo(2);
        assertThat(rows.get(0).getString(1)).isEqualTo("x");
    }

    @Test
    void readFilterGroupByAgainstDuckDb() throws Exception {
        Dataset<Row> df = spark.read().parquet(parquet)
                .filter(col("v").gt(100))
                .groupBy(col("k"))
                .agg(sum(col("v")).as("s"), count(lit(1)).as("n"))
                .orderBy(col("k"));
        assertThat(rows(df)).isEqualTo(duck.query("SELECT k, sum(v) s, count(*) n FROM t WHERE v > 100 GROUP BY k ORDER BY k"));
    }

    @Test
    void sqlOverTempViewAgainstDuckDb() throws Exception {
        spark.read().parquet(parquet).createOrReplaceTempView("t_view");
        Dataset<Row> df = spark.sql("SELECT name, count(*) AS c, max(v) AS m FROM t_view WHERE k < 3 GROUP BY name ORDER BY name");
        assertThat(rows(df)).isEqualTo(duck.query(
                "SELECT name, count(*) c, max(v) m FROM t WHERE k < 3 GROUP BY name ORDER BY name"));
        assertThat(spark.catalog().tableExists("t_view")).isTrue();
    }

    @Test
    void selectExpressionsSortLimit() throws Exception {
        Dataset<Row> df = spark.read().parquet(parquet)
                .select(col("k"), col("v").multiply(2).as("v2"), expr("name || '!'").as("e"),
                        when(col("k").equalTo(0), lit("zero")).otherwise(lit("other")).as("w"))
                .orderBy(col("v2").desc())
                .limit(5);
        assertThat(rows(df)).isEqualTo(duck.query(
                "SELECT k, v * 2 v2, name || '!' e, CASE WHEN k = 0 THEN 'zero' ELSE 'other' END w FROM t ORDER BY v2 DESC LIMIT 5"));
    }

    @Test
    void countAndCollect() throws Exception {
        Dataset<Row> df = spark.read().parquet(parquet).where("k = 3");
        assertThat(df.count()).isEqualTo(((Number) duck.queryRaw("SELECT count(*) FROM t WHERE k = 3").get(0).get(0)).longValue());
        assertThat(df.columns()).containsExactly("k", "name", "v");
    }

    @Test
    void showPrintsWhatSparkPrints() {
        Dataset<Row> df = spark.sql("SELECT 1 AS a, 'hello' AS b UNION ALL SELECT 22, 'a rather long text, more than twenty'");
        String shown = captured(() -> df.orderBy(col("a")).show());
        assertThat(shown).isEqualTo("""
                +---+--------------------+
                |  a|                   b|
                +---+--------------------+
                |  1|               hello|
                | 22|a rather long tex...|
                +---+--------------------+
                """);
        String top = captured(() -> df.orderBy(col("a")).show(1));
        assertThat(top).endsWith("+---+-----+\nonly showing top 1 row\n");
    }

    @Test
    void createDataFrameFromJavaRows() throws Exception {
        StructType schema = new StructType().add("id", DataTypes.IntegerType).add("label", DataTypes.StringType);
        Dataset<Row> df = spark.createDataFrame(List.of(RowFactory.create(1, "one"), RowFactory.create(2, "two"),
                RowFactory.create(3, null)), schema);
        assertThat(rows(df.filter(col("id").geq(2)).orderBy(col("id")))).isEqualTo(
                duck.query("SELECT * FROM (VALUES (2, 'two'), (3, NULL)) v(id, label) ORDER BY id"));
        assertThat(df.schema().fieldNames()).containsExactly("id", "label");
    }

    @Test
    void joinsAndSetOperationsAgainstDuckDb() throws Exception {
        Dataset<Row> t = spark.read().parquet(parquet);
        Dataset<Row> names = spark.createDataFrame(List.of(RowFactory.create(0, "zero"), RowFactory.create(1, "one"),
                RowFactory.create(2, "two")), new StructType().add("k", DataTypes.IntegerType).add("label", DataTypes.StringType));
        String values = "(VALUES (0, 'zero'), (1, 'one'), (2, 'two')) v(k, label)";
        assertThat(rows(t.join(names, "k").groupBy(col("label")).agg(count(lit(1)).as("n")).orderBy(col("label"))))
                .isEqualTo(duck.query("SELECT label, count(*) n FROM t JOIN " + values + " USING (k) GROUP BY label ORDER BY label"));
        assertThat(t.join(names, t.col("k").equalTo(names.col("k")), "left_anti").count())
                .isEqualTo(((Number) duck.queryRaw("SELECT count(*) FROM t WHERE k NOT IN (0, 1, 2)").get(0).get(0)).longValue());
        assertThat(rows(t.select(col("k")).union(t.select(col("k"))).distinct().orderBy(col("k"))))
                .isEqualTo(duck.query("SELECT DISTINCT k FROM t ORDER BY k"));
        assertThat(rows(t.select(col("k")).except(names.select(col("k"))).orderBy(col("k"))))
                .isEqualTo(duck.query("SELECT k FROM t EXCEPT SELECT k FROM " + values + " ORDER BY k"));
    }

    @Test
    void confSetAndGet() {
        spark.conf().set("spark.sql.shuffle.partitions", "3");
        assertThat(spark.conf().get("spark.sql.shuffle.partitions")).isEqualTo("3");
        spark.conf().set("spark.my.unknown.key", "echoed");
        assertThat(spark.conf().get("spark.my.unknown.key")).isEqualTo("echoed");
        // the mapped setting reaches the queries: they still answer
        assertThat(spark.read().parquet(parquet).groupBy(col("k")).count().count()).isEqualTo(7);
        spark.conf().unset("spark.sql.shuffle.partitions");
        assertThat(spark.conf().get("spark.sql.shuffle.partitions")).isEqualTo("200");
        // a SET through spark.sql stays with the session, as in Spark
        spark.sql("SET spark.sql.shuffle.partitions=5").collectAsList();
        assertThat(spark.conf().get("spark.sql.shuffle.partitions")).isEqualTo("5");
        spark.conf().unset("spark.sql.shuffle.partitions");
        // and the session's SQL reads Spark's dialect: a double-quoted text is a string, NULLs sort first
        assertThat(spark.sql("SELECT \"text\" AS t").collectAsList().get(0).getString(0)).isEqualTo("text");
        assertThat(spark.sql("SELECT x FROM (VALUES (1), (NULL)) AS v(x) ORDER BY x").collectAsList().get(0).isNullAt(0))
                .isTrue();
    }

    @Test
    void unknownColumnIsAnAnalysisExceptionNamingIt() {
        assertThatThrownBy(() -> spark.read().parquet(parquet).select(col("no_such_col")).collectAsList())
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("no_such_col");
        assertThat(spark.sql("SELECT 7 AS seven").collectAsList().get(0).get(0)).isNotNull();
    }

    @Test
    void ansiModeErrorsAreSparksArithmeticAndNumberFormatExceptions() {
        assertThatThrownBy(() -> spark.sql("SELECT 1 / 0").collectAsList())
                .isInstanceOf(SparkArithmeticException.class)
                .hasMessageContaining("[DIVIDE_BY_ZERO]");
        assertThatThrownBy(() -> spark.sql("SELECT CAST('abc' AS INT)").collectAsList())
                .isInstanceOf(SparkNumberFormatException.class)
                .hasMessageContaining("The value 'abc'");
        spark.conf().set("spark.sql.ansi.enabled", "false");
        try {
            assertThat(spark.sql("SELECT 1 / 0 AS q").collectAsList().get(0).isNullAt(0)).isTrue();
        } finally {
            spark.conf().unset("spark.sql.ansi.enabled");
        }
        assertThat(spark.sql("SELECT try_divide(1, 0) AS q").collectAsList().get(0).isNullAt(0)).isTrue();
    }

    @Test
    void badSqlIsAParseExceptionWithItsPosition() {
        assertThatThrownBy(() -> spark.sql("SELECT 1 + FROM").collectAsList())
                .isInstanceOf(ParseException.class)
                .hasMessageContaining("line 1, column");
        assertThat(spark.sql("SELECT 8 AS eight").collectAsList()).hasSize(1);
    }

    @Test
    void unsupportedRelationIsNamed() {
        Dataset<Row> df = spark.read().parquet(parquet);
        assertThatThrownBy(() -> df.unpivot(new org.apache.spark.sql.Column[] {col("k")},
                new org.apache.spark.sql.Column[] {col("v")}, "var", "val").collectAsList())
                .hasMessageContaining("unpivot");
    }

    @Test
    void wrongTokenIsRefused() throws Exception {
        try (SparkSession wrong = SparkSession.builder().remote("sc://localhost:" + server.port() + "/;token=wrong").create()) {
            assertThatThrownBy(() -> wrong.sql("SELECT 1").collectAsList())
                    .hasMessageContaining("UNAUTHENTICATED");
        }
        assertThat(spark.sql("SELECT 1 AS one").collectAsList()).hasSize(1);
    }

    @Test
    void smallQueryTime() {
        Dataset<Row> df = spark.read().parquet(parquet).groupBy(col("k")).agg(sum(col("v")));
        df.collectAsList();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long start = System.nanoTime();
            assertThat(df.collectAsList()).hasSize(7);
            best = Math.min(best, System.nanoTime() - start);
        }
        io.sluice.api.DataFrame same = session.read().parquet(parquet).groupBy("k")
                .agg(io.sluice.api.Functions.sum(io.sluice.api.Functions.col("v")));
        same.collect();
        long bestApi = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long start = System.nanoTime();
            assertThat(same.collect().rows()).hasSize(7);
            bestApi = Math.min(bestApi, System.nanoTime() - start);
        }
        System.out.printf("small group-by over %s, best of 5: Spark Connect %.1f ms, Java API %.1f ms%n", parquet,
                best / 1e6, bestApi / 1e6);
    }

    private static List<List<Object>> rows(Dataset<Row> df) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : df.collectAsList()) {
            List<Object> row = new ArrayList<>();
            for (int i = 0; i < r.length(); i++) {
                row.add(DuckDbOracle.normalize(r.get(i)));
            }
            out.add(row);
        }
        return out;
    }

    /** What {@code print} writes to standard output; Spark's client prints through Scala's Console, which keeps its own stream. */
    private static synchronized String captured(Runnable print) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        scala.Console.withOut(bytes, () -> {
            print.run();
            return null;
        });
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
