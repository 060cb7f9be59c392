package io.sluice.connect;

import static org.apache.spark.sql.functions.aggregate;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.call_function;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.exists;
import static org.apache.spark.sql.functions.explode_outer;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.filter;
import static org.apache.spark.sql.functions.forall;
import static org.apache.spark.sql.functions.inline;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.posexplode_outer;
import static org.apache.spark.sql.functions.rank;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.transform;
import static org.apache.spark.sql.functions.transform_values;
import static org.apache.spark.sql.functions.when;
import static org.apache.spark.sql.functions.zip_with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.connect.proto.ExecutePlanRequest;
import io.sluice.connect.proto.ExecutePlanResponse;
import io.sluice.connect.proto.Plan;
import io.sluice.connect.proto.Read;
import io.sluice.connect.proto.ReattachExecuteRequest;
import io.sluice.connect.proto.Relation;
import io.sluice.connect.proto.ReleaseExecuteRequest;
import io.sluice.connect.proto.ReleaseSessionRequest;
import io.sluice.connect.proto.SparkConnectServiceGrpc;
import io.sluice.connect.proto.UserContext;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.testfixtures.S3ProxyServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.apache.spark.SparkArithmeticException;
import org.apache.spark.SparkNumberFormatException;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
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
        // the client reads this on its first plan: Sluice takes plans uncompressed and says so as Spark does
        assertThat(spark.conf().get(SparkConf.PLAN_COMPRESSION_THRESHOLD)).isEqualTo("-1");
        // and the session's SQL reads Spark's dialect: a double-quoted text is a string, NULLs sort first
        assertThat(spark.sql("SELECT \"text\" AS t").collectAsList().get(0).getString(0)).isEqualTo("text");
        assertThat(spark.sql("SELECT x FROM (VALUES (1), (NULL)) AS v(x) ORDER BY x").collectAsList().get(0).isNullAt(0))
                .isTrue();
    }

    /** Spark's functions.transform and friends send LambdaFunction and UnresolvedNamedLambdaVariable expressions. */
    @Test
    void higherOrderFunctionsWithLambdas() {
        Dataset<Row> df = spark.sql("SELECT array(1, 2, 3) AS a, 10 AS n, map('p', 1, 'q', 2) AS m");
        Row row = df.select(transform(col("a"), x -> x.plus(col("n"))), transform(col("a"), (x, i) -> x.multiply(i)),
                filter(col("a"), x -> x.gt(1)), exists(col("a"), x -> x.gt(2)), forall(col("a"), x -> x.gt(2)),
                aggregate(col("a"), lit(0), (acc, x) -> acc.plus(x), acc -> acc.multiply(10)),
                zip_with(col("a"), col("a"), (x, y) -> x.multiply(y)), transform_values(col("m"), (k, v) -> v.plus(col("n"))))
                .collectAsList().get(0);
        assertThat(String.valueOf(row.getList(0))).isEqualTo("[11, 12, 13]");
        assertThat(String.valueOf(row.getList(1))).isEqualTo("[0, 2, 6]");
        assertThat(String.valueOf(row.getList(2))).isEqualTo("[2, 3]");
        assertThat(row.getBoolean(3)).isTrue();
        assertThat(row.getBoolean(4)).isFalse();
        assertThat(((Number) row.get(5)).longValue()).isEqualTo(60);
        assertThat(String.valueOf(row.getList(6))).isEqualTo("[1, 4, 9]");
        assertThat(String.valueOf(row.getJavaMap(7))).isEqualTo("{p=11, q=12}");
        assertThatThrownBy(() -> df.select(transform(col("n"), x -> x.plus(1))).collectAsList())
                .hasMessageContaining("transform(): argument 1 must be an ARRAY");
        assertThatThrownBy(() -> df.select(transform(col("a"), x -> lit(1).divide(x.minus(1)))).collectAsList())
                .isInstanceOf(SparkArithmeticException.class).hasMessageContaining("DIVIDE_BY_ZERO");
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
    void expressionStringsFollowTheSessionsAnsiModeAndTimeZone() {
        Dataset<Row> big = spark.sql("SELECT 2147483647 AS big");
        assertThatThrownBy(() -> big.selectExpr("big + 1 AS x").collectAsList())
                .isInstanceOf(SparkArithmeticException.class).hasMessageContaining("[ARITHMETIC_OVERFLOW]");
        Dataset<Row> epoch = spark.sql("SELECT 0 AS secs");
        assertThat(epoch.selectExpr("from_unixtime(secs) AS t").collectAsList().get(0).getString(0))
                .isEqualTo("1970-01-01 00:00:00");
        spark.conf().set("spark.sql.ansi.enabled", "false");
        spark.conf().set("spark.sql.session.timeZone", "America/Los_Angeles");
        try {
            assertThat(firstNumber(big.selectExpr("big + 1 AS x"))).isEqualTo((long) Integer.MIN_VALUE);
            assertThat(big.filter("big + 1 < 0").count()).isEqualTo(1);
            assertThat(epoch.select(expr("from_unixtime(secs)")).collectAsList().get(0).getString(0))
                    .isEqualTo("1969-12-31 16:00:00");
        } finally {
            spark.conf().unset("spark.sql.ansi.enabled");
            spark.conf().unset("spark.sql.session.timeZone");
        }
    }

    private static long firstNumber(Dataset<Row> df) {
        return ((Number) df.collectAsList().get(0).get(0)).longValue();
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
        assertThatThrownBy(() -> df.transpose().collectAsList()).hasMessageContaining("transpose");
    }

    @Test
    void rangeIsMadeOnTheWorkersAtAnySize() throws Exception {
        Row r = spark.range(0, 1_000_000, 3, 4).agg(count(lit(1)), sum(col("id")), min(col("id")), max(col("id")))
                .collectAsList().get(0);
        assertThat(List.of(r.getLong(0), r.getLong(1), r.getLong(2), r.getLong(3)))
                .containsExactly(333_334L, 166_666_833_333L, 0L, 999_999L);
        assertThat(rows(spark.range(10, -10, -3).toDF().orderBy(col("id")))).isEqualTo(duck.query("SELECT * FROM range(10, -10, -3) ORDER BY 1"));
        assertThat(spark.range(7, 7).count()).isZero();
        Dataset<Row> t = spark.read().parquet(parquet);
        assertThat(rows(spark.range(0, 20).join(t, col("id").equalTo(col("k"))).groupBy(col("id")).agg(count(lit(1)).as("n"))
                .orderBy(col("id")))).isEqualTo(duck.query("SELECT i, count(*) n FROM range(0, 20) r(i) JOIN t ON i = k GROUP BY i ORDER BY i"));
        assertThatThrownBy(() -> spark.range(Long.MIN_VALUE, Long.MAX_VALUE).count())
                .hasMessageContaining("more than a BIGINT counts");
        assertThat(spark.range(3).count()).isEqualTo(3);
    }

    @Test
    void sampleWithReplacementIsSeededPoisson() {
        Dataset<Row> sample = spark.range(0, 10_000, 1, 4).toDF().sample(true, 0.5, 11);
        long n = sample.count();
        assertThat(n).isBetween(4_500L, 5_500L);
        assertThat(sample.count()).isEqualTo(n);
        Dataset<Row> doubled = spark.range(0, 10_000, 1, 4).toDF().sample(true, 2.0, 11);
        assertThat(doubled.count()).isBetween(19_000L, 21_000L);
        assertThat(doubled.distinct().count()).isLessThan(doubled.count());
    }

    @Test
    void unpivotAgainstDuckDb() throws Exception {
        Dataset<Row> t = spark.read().parquet(parquet);
        org.apache.spark.sql.Column[] ids = {col("name")};
        Dataset<Row> unpivoted = t.unpivot(ids, new org.apache.spark.sql.Column[] {col("k"), col("v")}, "var", "val");
        assertThat(unpivoted.columns()).containsExactly("name", "var", "val");
        duck.execute("CREATE OR REPLACE VIEW t_doubles AS SELECT name, k::DOUBLE AS k, v FROM t");
        String duckUnpivot = "UNPIVOT t_doubles ON k, v INTO NAME var VALUE val";
        assertThat(rows(unpivoted.groupBy(col("var")).agg(count(lit(1)).as("n"), sum(col("val")).as("s")).orderBy(col("var"))))
                .isEqualTo(duck.query("SELECT var, count(*) n, sum(val) s FROM (" + duckUnpivot + ") GROUP BY var ORDER BY var"));
        assertThat(t.melt(new org.apache.spark.sql.Column[] {col("name"), col("k")}, "var", "val").count()).isEqualTo(2000);
        assertThatThrownBy(() -> t.unpivot(new org.apache.spark.sql.Column[] {col("k"), col("name"), col("v")}, "var", "val")
                .collectAsList()).hasMessageContaining("unpivot needs at least one value column");
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

    @Test
    void writeParquetThenReadItBack() throws Exception {
        String out = dir.resolve("written-parquet").toString();
        Dataset<Row> small = spark.read().parquet(parquet).filter(col("k").lt(3));
        small.write().mode("overwrite").partitionBy("k").parquet(out);
        Dataset<Row> back = spark.read().parquet(out);
        assertThat(rows(back.groupBy(col("k")).agg(sum(col("v")).as("s"), count(lit(1)).as("n")).orderBy(col("k"))))
                .isEqualTo(duck.query("SELECT k, sum(v) s, count(*) n FROM t WHERE k < 3 GROUP BY k ORDER BY k"));
        long n = back.count();
        assertThatThrownBy(() -> small.write().parquet(out)).hasMessageContaining(out).hasMessageContaining("already exists");
        small.write().mode("ignore").parquet(out);
        assertThat(spark.read().parquet(out).count()).isEqualTo(n);
        small.write().mode("append").partitionBy("k").parquet(out);
        assertThat(spark.read().parquet(out).count()).isEqualTo(2 * n);
    }

    @Test
    void writeCsvThenReadItWithHeader() throws Exception {
        String out = dir.resolve("written-csv").toString();
        spark.read().parquet(parquet).filter(col("k").equalTo(4)).select(col("k"), col("name"))
                .write().format("csv").option("header", true).save(out);
        Dataset<Row> back = spark.read().option("header", true).csv(out);
        assertThat(back.columns()).containsExactly("k", "name");
        assertThat(rows(back.groupBy(col("name")).agg(count(lit(1)).as("n")).orderBy(col("name"))))
                .isEqualTo(duck.query("SELECT name, count(*) n FROM read_csv('" + out + "/*.csv', header = true)"
                        + " GROUP BY name ORDER BY name"))
                .isEqualTo(duck.query("SELECT name, count(*) n FROM t WHERE k = 4 GROUP BY name ORDER BY name"));
    }

    @Test
    void saveAsTableInsertIntoAndWriteTo() throws Exception {
        Dataset<Row> small = spark.read().parquet(parquet).filter(col("k").equalTo(5));
        long n = small.count();
        small.write().saveAsTable("written_t");
        assertThat(spark.table("written_t").count()).isEqualTo(n);
        assertThatThrownBy(() -> small.write().saveAsTable("written_t")).hasMessageContaining("written_t");
        small.write().mode("ignore").saveAsTable("written_t");
        small.write().mode("append").saveAsTable("written_t");
        small.write().insertInto("written_t");
        assertThat(spark.table("written_t").count()).isEqualTo(3 * n);
        small.write().mode("overwrite").insertInto("written_t");
        assertThat(rows(spark.table("written_t").groupBy(col("k")).agg(sum(col("v")).as("s"))))
                .isEqualTo(duck.query("SELECT k, sum(v) s FROM t WHERE k = 5 GROUP BY k"));

        // overwrite replaces the table's columns, as Spark does; a write refused before it starts leaves the table as it was
        Dataset<Row> reshaped = spark.read().parquet(parquet).filter(col("k").equalTo(2)).select(col("name"),
                col("v").multiply(2).as("w"));
        reshaped.write().mode("overwrite").saveAsTable("written_t");
        assertThat(spark.table("written_t").columns()).containsExactly("name", "w");
        assertThat(rows(spark.table("written_t").groupBy(col("name")).agg(sum(col("w")).as("s")).orderBy(col("name"))))
                .isEqualTo(duck.query("SELECT name, sum(v * 2) s FROM t WHERE k = 2 GROUP BY name ORDER BY name"));
        assertThatThrownBy(() -> small.write().mode("overwrite").partitionBy("no_such_col").saveAsTable("written_t"))
                .hasMessageContaining("no_such_col");
        assertThat(spark.table("written_t").columns()).containsExactly("name", "w");
        assertThat(spark.table("written_t").count()).isEqualTo(reshaped.count());

        small.writeTo("written_v2").using("parquet").create();
        small.writeTo("written_v2").append();
        assertThat(spark.table("written_v2").count()).isEqualTo(2 * n);
        assertThatThrownBy(() -> small.writeTo("written_v2").createOrReplace())
                .hasMessageContaining("createOrReplace").hasMessageContaining("written_v2");
        assertThat(spark.table("written_v2").count()).isEqualTo(2 * n);
    }

    @Test
    void windowFunctionsAgainstDuckDb() throws Exception {
        WindowSpec byK = Window.partitionBy(col("k")).orderBy(col("v").desc());
        Dataset<Row> df = spark.read().parquet(parquet)
                .select(col("k"), col("v"), row_number().over(byK).as("rn"), rank().over(byK).as("r"),
                        sum(col("v")).over(Window.partitionBy(col("k")).orderBy(col("v")).rowsBetween(-2, Window.currentRow()))
                                .as("s3"),
                        count(lit(1)).over(Window.partitionBy(col("k"))).as("n"))
                .filter(col("rn").leq(3))
                .orderBy(col("k"), col("rn"));
        assertThat(rows(df)).isEqualTo(duck.query("SELECT * FROM (SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v DESC) rn,"
                + " rank() OVER (PARTITION BY k ORDER BY v DESC) r,"
                + " sum(v) OVER (PARTITION BY k ORDER BY v ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) s3,"
                + " count(*) OVER (PARTITION BY k) n FROM t) WHERE rn <= 3 ORDER BY k, rn"));
    }

    @Test
    void explainInSparksModesShowsTheBroadcastHint() {
        Dataset<Row> t = spark.read().parquet(parquet);
        Dataset<Row> names = spark.createDataFrame(List.of(RowFactory.create(0, "zero"), RowFactory.create(1, "one")),
                new StructType().add("k", DataTypes.IntegerType).add("label", DataTypes.StringType));
        Dataset<Row> joined = t.join(broadcast(names), "k");
        String simple = captured(joined::explain);
        assertThat(simple).startsWith("== Physical Plan ==\n").doesNotContain("== Optimized Logical Plan ==");
        String extended = captured(() -> joined.explain("extended"));
        assertThat(extended).contains("== Parsed Logical Plan ==\n", "== Analyzed Logical Plan ==\n",
                "== Optimized Logical Plan ==\n", "== Physical Plan ==\n");
        assertThat(extended.substring(extended.indexOf("== Optimized Logical Plan =="))).containsIgnoringCase("broadcast");
        assertThat(simple).containsIgnoringCase("broadcast");
        assertThat(captured(() -> joined.explain("cost"))).startsWith("== Optimized Logical Plan ==\n");
        assertThat(captured(() -> joined.explain("formatted"))).startsWith("== Physical Plan ==\n").contains("== Stages ==\n");
    }

    @Test
    void printSchemaPrintsWhatSparkPrints() throws Exception {
        Path nested = dir.resolve("nested.parquet");
        duck.writeParquet("SELECT 1::INTEGER AS i, 2::BIGINT AS l, 'x' AS s, 1.5::DOUBLE AS d, 1.25::DECIMAL(12,2) AS m,"
                + " DATE '2024-01-02' AS dt, true AS b, [1, 2]::INTEGER[] AS arr, {'a': 1::INTEGER, 'b': 'y'} AS st", nested, 10);
        // Spark 4.2's own printSchema of this file (spark.read.parquet(..).printSchema() in local mode)
        assertThat(captured(() -> spark.read().parquet(nested.toString()).printSchema())).isEqualTo("""
                root
                 |-- i: integer (nullable = true)
                 |-- l: long (nullable = true)
                 |-- s: string (nullable = true)
                 |-- d: double (nullable = true)
                 |-- m: decimal(12,2) (nullable = true)
                 |-- dt: date (nullable = true)
                 |-- b: boolean (nullable = true)
                 |-- arr: array (nullable = true)
                 |    |-- element: integer (containsNull = true)
                 |-- st: struct (nullable = true)
                 |    |-- a: integer (nullable = true)
                 |    |-- b: string (nullable = true)

                """);
    }

    /** Struct, list and map columns reach Spark's client as Arrow vectors; its generators by their names, with Spark's column names. */
    @Test
    void nestedValuesAndGeneratorsReachSparksClient() throws Exception {
        Path file = dir.resolve("generators.parquet");
        duck.writeParquet("SELECT i AS id, {'a': i::INTEGER, 'b': 'x' || i} AS s, CASE WHEN i = 2 THEN NULL ELSE range(i) END AS xs,"
                + " MAP(['k'], [i]) AS m, [{'p': i, 'q': 'q' || i}] AS ls FROM range(0, 4) r(i)", file, 10);
        Dataset<Row> df = spark.read().parquet(file.toString());
        List<Row> rows = df.select(col("id"), col("s"), col("xs"), col("m")).orderBy("id").collectAsList();
        assertThat(rows.get(1).getStruct(1).getInt(0)).isEqualTo(1);
        assertThat(rows.get(1).getStruct(1).getString(1)).isEqualTo("x1");
        assertThat(rows.get(3).getList(2)).containsExactly(0L, 1L, 2L);
        assertThat(rows.get(3).<String, Long>getJavaMap(3)).containsEntry("k", 3L);
        assertThat(rows.get(2).isNullAt(2)).isTrue();
        Dataset<Row> positions = df.select(col("id"), posexplode_outer(col("xs")));
        assertThat(positions.columns()).containsExactly("id", "pos", "col");
        assertThat(positions.orderBy("id", "pos").collectAsList().toString())
                .isEqualTo("[[0,null,null], [1,0,0], [2,null,null], [3,0,0], [3,1,1], [3,2,2]]");
        Dataset<Row> inlined = df.select(col("id"), inline(col("ls")));
        assertThat(inlined.columns()).containsExactly("id", "p", "q");
        assertThat(inlined.orderBy("id").collectAsList().toString()).isEqualTo("[[0,0,q0], [1,1,q1], [2,2,q2], [3,3,q3]]");
        assertThat(df.select(explode_outer(col("xs"))).count()).isEqualTo(6);
    }

    @Test
    void interruptAllStopsARunningQueryWithinSeconds() throws Exception {
        // 2,000 cubed rows: minutes of work
        Dataset<Row> t = spark.read().parquet(parquet);
        Dataset<Row> endless = t.select(col("v").as("a")).crossJoin(t.select(col("v").as("b")))
                .crossJoin(t.select(col("k").as("c"))).agg(sum(col("a").plus(col("b")).plus(col("c"))));
        CompletableFuture<List<Row>> running = CompletableFuture.supplyAsync(endless::collectAsList);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // interrupted once its query runs on the cluster, so that tasks are what must stop
        while (session.runningQueries().equals("[]") && !running.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(session.runningQueries()).as("the query runs on the cluster").isNotEqualTo("[]");
        scala.collection.immutable.Seq<String> interrupted = spark.interruptAll();
        while (interrupted.isEmpty() && !running.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(200);
            interrupted = spark.interruptAll();
        }
        assertThat(interrupted.isEmpty()).as("an operation was interrupted").isFalse();
        long interruptedAt = System.nanoTime();
        assertThatThrownBy(() -> running.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().hasMessageContaining("OPERATION_CANCELED");
        assertThat(System.nanoTime() - interruptedAt).isLessThan(TimeUnit.SECONDS.toNanos(10));
        long stopDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!session.runningQueries().equals("[]") && System.nanoTime() < stopDeadline) {
            Thread.sleep(100);
        }
        assertThat(session.runningQueries()).as("no query runs on the cluster").isEqualTo("[]");
        assertThat(spark.sql("SELECT 9 AS nine").collectAsList()).hasSize(1);
    }

    @Test
    void reattachAfterADroppedStreamThenRelease() throws Exception {
        // Spark's client reattaches by itself but offers no way to drop its stream: its own messages, over gRPC
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
        try {
            Metadata auth = new Metadata();
            auth.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + secret);
            SparkConnectServiceGrpc.SparkConnectServiceBlockingStub stub = SparkConnectServiceGrpc.newBlockingStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(auth));
            String sessionId = UUID.randomUUID().toString();
            String operationId = UUID.randomUUID().toString();
            ExecutePlanRequest execute = ExecutePlanRequest.newBuilder().setSessionId(sessionId).setOperationId(operationId)
                    .setUserContext(UserContext.newBuilder().setUserId("it"))
                    .setPlan(Plan.newBuilder().setRoot(Relation.newBuilder().setRead(Read.newBuilder().setDataSource(
                            Read.DataSource.newBuilder().setFormat("parquet").addPaths(parquet)))))
                    .build();
            String first;
            try (Context.CancellableContext call = Context.current().withCancellation()) {
                first = call.call(() -> stub.executePlan(execute).next().getResponseId());
            }
            ReattachExecuteRequest reattach = ReattachExecuteRequest.newBuilder().setSessionId(sessionId)
                    .setOperationId(operationId).setLastResponseId(first).build();
            long rows = 0;
            boolean complete = false;
            for (Iterator<ExecutePlanResponse> it = stub.reattachExecute(reattach); it.hasNext(); ) {
                ExecutePlanResponse r = it.next();
                rows += r.getArrowBatch().getRowCount();
                complete |= r.hasResultComplete();
            }
            assertThat(rows).isEqualTo(2_000);
            assertThat(complete).isTrue();
            stub.releaseExecute(ReleaseExecuteRequest.newBuilder().setSessionId(sessionId).setOperationId(operationId)
                    .setReleaseAll(ReleaseExecuteRequest.ReleaseAll.getDefaultInstance()).build());
            assertThatThrownBy(() -> stub.reattachExecute(reattach).hasNext()).hasMessageContaining("OPERATION_NOT_FOUND")
                    .hasMessageContaining(operationId);
            stub.releaseSession(ReleaseSessionRequest.newBuilder().setSessionId(sessionId).build());
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Two reads with Hadoop options of their own, each on an S3-compatible server with its own
     * credentials (the node knows neither): as Spark's {@code fs.s3a.*} options and as
     * {@code sluice.hadoop.*} ones. Joined and unioned, each scan opens its files with its own options
     * on the workers; a writer's options hold for its write only; neither secret shows in
     * {@code explain}; a node-only key is refused by name.
     */
    @Test
    void readerHadoopOptionsTravelWithEachScan() throws Exception {
        Path first = dir.resolve("s3-first");
        Path second = dir.resolve("s3-second");
        duck.writeParquet("SELECT * FROM t", Files.createDirectories(first.resolve("lake/t")).resolve("part-0.parquet"), 500);
        duck.writeParquet("SELECT DISTINCT k, 'label-' || k AS label FROM t",
                Files.createDirectories(second.resolve("lake/t")).resolve("part-0.parquet"), 500);
        try (S3ProxyServer a = S3ProxyServer.start(first, "access-first", "secret-first-7d1f");
                S3ProxyServer b = S3ProxyServer.start(second, "access-second", "secret-second-30e2")) {
            Dataset<Row> facts = spark.read().options(s3Options(a, "access-first", "secret-first-7d1f", ""))
                    .parquet("s3a://lake/t");
            Dataset<Row> labels = spark.read().options(s3Options(b, "access-second", "secret-second-30e2", "sluice.hadoop."))
                    .parquet("s3a://lake/t");
            Dataset<Row> joined = facts.join(labels, "k").groupBy(col("label"))
                    .agg(count(lit(1)).as("n"), sum(col("v")).as("s")).orderBy(col("label"));
            assertThat(rows(joined)).isEqualTo(duck.query(
                    "SELECT 'label-' || k AS label, count(*) n, sum(v) s FROM t GROUP BY k ORDER BY label"));
            assertThat(facts.select(col("k")).union(labels.select(col("k"))).count()).isEqualTo(2007L);
            // a writer's fs.* options are the write's only: the join's first reader keeps its own server
            joined.write().options(s3Options(b, "access-second", "secret-second-30e2", "")).mode("overwrite")
                    .parquet("s3a://lake/joined");
            assertThat(duck.query("SELECT count(*) FROM read_parquet('" + second.resolve("lake/joined") + "/*.parquet')"))
                    .isEqualTo(List.of(List.of((long) rows(joined).size())));
            assertThat(first.resolve("lake/joined")).doesNotExist();
            String explained = captured(() -> joined.explain("extended"));
            assertThat(explained).contains("label").doesNotContain("secret-first-7d1f").doesNotContain("secret-second-30e2");
            assertThatThrownBy(() -> spark.read().option("fs.s3a.impl", "x.Y").parquet("s3a://lake/t").collectAsList())
                    .hasMessageContaining("sluice.hadoop.fs.s3a.impl is node-only");
        }
        assertThat(spark.sql("SELECT 11 AS eleven").collectAsList()).hasSize(1);
    }

    /** A server's S3A keys as reader options (the credentials provider is node-only: S3A's default chain takes the keys). */
    private static Map<String, String> s3Options(S3ProxyServer server, String access, String secret, String prefix) {
        Map<String, String> options = new TreeMap<>();
        server.hadoopSettings(access, secret).forEach((k, v) -> {
            String key = k.substring("sluice.hadoop.".length());
            if (!key.endsWith(".provider")) {
                options.put(prefix + key, v);
            }
        });
        return options;
    }

    @Test
    void userFunctionJarAddedAsAnArtifact() throws Exception {
        Path jar = userFunctionJar(dir.resolve("udf"), "connectudf.Shout", """
                package connectudf;
                public class Shout implements io.sluice.logical.expr.UserFunction {
                    public Object call(Object[] args) {
                        return args[0] == null ? null : ((String) args[0]).toUpperCase() + "!";
                    }
                }
                """);
        assertThatThrownBy(() -> spark.addArtifact(jar.toString()))
                .hasMessageContaining("jars/shout.jar").hasMessageContaining("--allow-job-jars");
        assertThatThrownBy(() -> spark.udf().registerJava("shout", "connectudf.Shout", DataTypes.StringType))
                .hasMessageContaining("shout").hasMessageContaining("--allow-job-jars");
        assertThat(spark.sql("SELECT 10 AS ten").collectAsList()).hasSize(1);

        session.localCluster().allowJobJars();
        assertThatThrownBy(() -> spark.udf().registerJava("shout", "connectudf.Shout", DataTypes.StringType))
                .hasMessageContaining("connectudf.Shout").hasMessageContaining("spark.addArtifact");
        spark.addArtifact(jar.toString());
        spark.udf().registerJava("shout", "connectudf.Shout", DataTypes.StringType);
        Dataset<Row> shouted = spark.read().parquet(parquet).filter(col("k").equalTo(1))
                .select(call_function("shout", col("name")).as("loud")).distinct().orderBy(col("loud"));
        assertThat(rows(shouted)).isEqualTo(duck.query("SELECT DISTINCT upper(name) || '!' AS loud FROM t WHERE k = 1 ORDER BY loud"));
        spark.read().parquet(parquet).createOrReplaceTempView("udf_t");
        assertThat(rows(spark.sql("SELECT DISTINCT shout(name) AS loud FROM udf_t WHERE k = 1 ORDER BY loud")))
                .isEqualTo(duck.query("SELECT DISTINCT upper(name) || '!' AS loud FROM t WHERE k = 1 ORDER BY loud"));
        assertThatThrownBy(() -> spark.sql("SELECT shoutt(name) FROM udf_t").collectAsList()).hasMessageContaining("shoutt");
    }

    /** A jar of {@code source} (class {@code className}), compiled here: no node has the class on its class path. */
    private static Path userFunctionJar(Path work, String className, String source) throws Exception {
        Path src = work.resolve("src").resolve(className.replace('.', '/') + ".java");
        Path classes = work.resolve("classes");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        Files.writeString(src, source);
        String classPath = Path.of(io.sluice.logical.expr.UserFunction.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI()).toString();
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-classpath", classPath,
                src.toString())).as("javac").isZero();
        Path jar = work.resolve("shout.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
            for (Path c : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(c).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(c));
                out.closeEntry();
            }
        }
        return jar;
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
