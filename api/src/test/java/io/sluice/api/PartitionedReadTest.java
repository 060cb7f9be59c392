package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hive-partitioned datasets written by other engines, read on the embedded cluster: DuckDB's (one of
 * 5,000 files) and Spark's (a committed test resource, with a NULL and an escaped partition value,
 * {@code .crc} files and {@code _SUCCESS}): partition columns in the schema with inferred types, the
 * same answers as DuckDB reading the same files with {@code hive_partitioning}, and a filter on one
 * partition opening only that partition's files. Paths as users give them (globs, several paths,
 * hidden and bookkeeping files) and bad input (inconsistent directories, values that do not parse,
 * a corrupt file) with errors naming the path, the cluster serving on.
 */
class PartitionedReadTest {
    private static final int GROUPS = 250;
    private static final int HOURS = 20;

    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static Session session;
    private static Path big;
    private static Path spark;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        session = Session.local(2);
        big = data.resolve("events");
        long start = System.nanoTime();
        duck.execute("SET threads = 2");
        duck.execute("COPY (SELECT range AS id, CAST(range % 1000 AS INTEGER) AS amount, 'v' || (range % 7) AS tag,"
                + " CAST(range % " + GROUPS + " AS INTEGER) AS g, CAST((range // " + GROUPS + ") % " + HOURS
                + " AS INTEGER) AS h FROM range(0, " + GROUPS * HOURS * 4 + ")) TO '" + big
                + "' (FORMAT parquet, PARTITION_BY (g, h))");
        System.out.printf("DuckDB wrote %d files in %.1f s%n", parquetFiles(big),
                (System.nanoTime() - start) / 1e9);
        spark = Path.of(PartitionedReadTest.class.getResource("/datasets/spark-sales").toURI());
        session.sql("CREATE EXTERNAL TABLE events STORED AS PARQUET LOCATION '" + big + "'");
        session.sql("CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION '" + spark + "'");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (session != null) {
                ClusterTesting.assertNoLeakedBuffers(session);
            }
        } finally {
            ClusterTesting.closeAll(session, duck);
        }
    }

    private static long parquetFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".parquet")).count();
        }
    }

    private static List<List<Object>> rows(String sql) {
        return DuckDbOracle.normalize(session.sql(sql).collect());
    }

    private static String text(String sql) {
        return session.sql(sql).collect().rows().stream().map(r -> (String) r.get(0)).collect(Collectors.joining("\n"));
    }

    private static String duckHive(Path dir) {
        return "read_parquet('" + dir + "/**/*.parquet', hive_partitioning = true)";
    }

    @Test
    void duckDbDatasetOfFiveThousandFilesHasItsPartitionColumnsLast() throws Exception {
        assertThat(parquetFiles(big)).isGreaterThanOrEqualTo(5000);
        assertThat(rows("DESCRIBE events")).extracting(r -> r.get(0) + " " + r.get(1))
                .containsExactly("id int64", "amount int32", "tag utf8", "g int32", "h int32");
    }

    @Test
    void duckDbDatasetAnswersAsDuckDb() throws Exception {
        String sql = "SELECT h, tag, count(*) AS n, sum(amount) AS s, min(g) AS lo, max(g) AS hi FROM %s"
                + " WHERE g < 5 GROUP BY h, tag";
        assertThat(DuckDbOracle.sorted(rows(String.format(sql, "events"))))
                .isEqualTo(DuckDbOracle.sorted(duck.query(String.format(sql, duckHive(big)))));
    }

    @Test
    void filterOnOnePartitionOpensOnlyItsFiles() throws Exception {
        String sql = "SELECT count(*) AS n, sum(amount) AS s, min(id) AS lo FROM events WHERE g = 17 AND h = 3";
        long start = System.nanoTime();
        String plan = text("EXPLAIN " + sql);
        long planNanos = System.nanoTime() - start;
        System.out.printf("EXPLAIN of a one-partition filter over %d files: %.0f ms%n", parquetFiles(big), planNanos / 1e6);
        assertThat(plan).contains("files=1/5000 partitions=1/5000");
        String analyzed = text("EXPLAIN ANALYZE " + sql);
        assertThat(filesOpened(analyzed)).isEqualTo(1);
        assertThat(rows(sql)).isEqualTo(duck.query(sql.replace("events", duckHive(big))));
        String range = "SELECT count(*) AS n, sum(amount) AS s FROM events WHERE g BETWEEN 10 AND 12";
        assertThat(text("EXPLAIN " + range)).contains("files=60/5000 partitions=60/5000");
        assertThat(filesOpened(text("EXPLAIN ANALYZE " + range))).isEqualTo(60);
        assertThat(rows(range)).isEqualTo(duck.query(range.replace("events", duckHive(big))));
        String in = "SELECT count(*) AS n, sum(amount) AS s FROM events WHERE g IN (3, 7) AND (h = 0 OR h > 18)";
        assertThat(text("EXPLAIN " + in)).contains("files=4/5000 partitions=4/5000");
        assertThat(rows(in)).isEqualTo(duck.query(in.replace("events", duckHive(big))));
    }

    @Test
    void aScanOfManySmallFilesPacksThemIntoFewerTasks() throws Exception {
        String sql = "SELECT g % 10 AS k, count(*) AS n, sum(amount) AS s, max(id) AS hi FROM events WHERE g < 25 GROUP BY g % 10";
        String plan = text("EXPLAIN " + sql);
        Matcher tasks = Pattern.compile("500 partitions in (\\d+) tasks").matcher(plan);
        assertThat(tasks.find()).as("packed tasks in %s", plan).isTrue();
        assertThat(Integer.parseInt(tasks.group(1))).isBetween(64, 80); // 7 files of 4 MiB open cost a task: 72
        assertThat(plan).contains("files=500/5000 partitions=500/5000");
        assertThat(filesOpened(text("EXPLAIN ANALYZE " + sql))).isEqualTo(500);
        assertThat(DuckDbOracle.sorted(rows(sql))).isEqualTo(DuckDbOracle.sorted(duck.query(sql.replace("events", duckHive(big)))));
    }

    private static long filesOpened(String analyzed) {
        Matcher m = Pattern.compile("files_opened=(\\d+)").matcher(analyzed);
        assertThat(m.find()).as("files_opened in %s", analyzed).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void sparkDatasetAnswersAsDuckDb() throws Exception {
        assertThat(rows("DESCRIBE sales")).extracting(r -> r.get(0) + " " + r.get(1))
                .containsExactly("id int64", "qty int32", "price float64", "item utf8", "region utf8", "day date32");
        String sql = "SELECT region, day, count(*) AS n, sum(qty) AS q, sum(price) AS p FROM %s GROUP BY region, day";
        assertThat(DuckDbOracle.sorted(rows(String.format(sql, "sales"))))
                .isEqualTo(DuckDbOracle.sorted(duck.query(String.format(sql, duckHive(spark)))));
        assertThat(rows("SELECT count(*) FROM sales WHERE region IS NULL")).containsExactly(List.of(60L));
        assertThat(rows("SELECT count(*) FROM sales WHERE region = 'a/b'")).containsExactly(List.of(60L));
        String oneDay = "SELECT count(*) AS n, sum(qty) AS q FROM sales WHERE day = DATE '2024-01-02' AND region = 'north'";
        assertThat(text("EXPLAIN " + oneDay)).contains("files=2/32 partitions=1/16");
        assertThat(rows(oneDay)).isEqualTo(duck.query(String.format(oneDay.replace("sales", "%s"), duckHive(spark))));
    }

    @Test
    void globsSeveralPathsAndBookkeepingFiles() throws Exception {
        Path dir = data.resolve("paths");
        for (int y = 2023; y <= 2025; y++) {
            Path year = Files.createDirectories(dir.resolve("year=" + y));
            duck.execute("COPY (SELECT " + y + " * 10 + range AS v FROM range(0, 3)) TO '" + year.resolve("part-0.parquet")
                    + "' (FORMAT parquet)");
            Files.writeString(year.resolve(".part-9.parquet.crc"), "not parquet");
            Files.writeString(year.resolve("part-9.parquet.crc"), "not parquet");
            Files.writeString(year.resolve("_committed_123"), "not parquet");
            Files.writeString(year.resolve("_started_123"), "not parquet");
            Files.createDirectories(year.resolve("_temporary/0"));
            Files.writeString(year.resolve("_temporary/0/part-9.parquet"), "not parquet");
            Files.createDirectories(year.resolve(".hidden"));
            Files.writeString(year.resolve(".hidden/part-9.parquet"), "not parquet");
        }
        Files.writeString(dir.resolve("_SUCCESS"), "");
        assertThat(DuckDbOracle.normalize(session.read().parquet(dir.toString()).collect())).hasSize(9);
        DataFrame glob = session.read().parquet(dir + "/year=202[45]/part-*.parquet");
        assertThat(glob.schema().names()).containsExactly("v", "year");
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(glob.collect())))
                .containsExactly(List.of(20240L, 2024L), List.of(20241L, 2024L), List.of(20242L, 2024L),
                        List.of(20250L, 2025L), List.of(20251L, 2025L), List.of(20252L, 2025L));
        DataFrame two = session.read().parquet(dir.resolve("year=2023").toString(), dir.resolve("year=2025").toString());
        assertThat(DuckDbOracle.normalize(two.collect())).hasSize(6);
        session.sql("CREATE EXTERNAL TABLE two_years STORED AS PARQUET LOCATION '" + dir.resolve("year=2023") + ","
                + dir.resolve("year=2024") + "'");
        assertThat(rows("SELECT sum(v) FROM two_years")).containsExactly(List.of(3L * 20230 + 3 + 3L * 20240 + 3));
        assertThatThrownBy(() -> session.read().parquet(dir + "/year=19*/*.parquet"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("no file matches " + dir + "/year=19*/*.parquet");
        assertThatThrownBy(() -> session.read().parquet(dir.resolve("nope").toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("file not found: " + dir.resolve("nope"));
    }

    @Test
    void mixedValuesAreStringsAndAValueOfTheWrongTypeNamesItsDirectory() throws Exception {
        Path dir = data.resolve("mixed");
        write(dir.resolve("k=1"));
        write(dir.resolve("k=abc"));
        assertThat(DuckDbOracle.normalize(session.read().parquet(dir.toString()).select("k").collect()))
                .containsExactlyInAnyOrder(List.of("1"), List.of("1"), List.of("1"), List.of("abc"), List.of("abc"), List.of("abc"));

        Path typed = data.resolve("typed");
        write(typed.resolve("k=1"));
        write(typed.resolve("k=2"));
        session.sql("CREATE EXTERNAL TABLE typed STORED AS PARQUET LOCATION '" + typed + "'");
        assertThat(rows("DESCRIBE typed")).extracting(r -> r.get(0) + " " + r.get(1)).containsExactly("v int64", "k int32");
        write(typed.resolve("k=x1"));
        assertThatThrownBy(() -> rows("SELECT sum(k) FROM typed"))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("partition directory k=x1 of " + "file:" + typed.resolve("k=x1/part-0.parquet"))
                .hasMessageContaining("'x1' is not a INT");
        assertThat(rows("SELECT count(*) FROM events WHERE g = 1")).containsExactly(List.of(80L));
    }

    @Test
    void declaredColumnsTypeThePartitionColumnsTheyNameAndPartitionedByIsChecked() throws Exception {
        Path dir = data.resolve("declared");
        write(dir.resolve("k=1"));
        write(dir.resolve("k=2"));
        session.sql("CREATE EXTERNAL TABLE declared (v BIGINT, k BIGINT) STORED AS PARQUET PARTITIONED BY (k)"
                + " LOCATION '" + dir + "'");
        assertThat(rows("DESCRIBE declared")).extracting(r -> r.get(0) + " " + r.get(1)).containsExactly("v int64", "k int64");
        assertThat(rows("SELECT k, count(*) FROM declared GROUP BY k ORDER BY k"))
                .containsExactly(List.of(1L, 3L), List.of(2L, 3L));
        assertThat(text("EXPLAIN SELECT count(*) FROM declared WHERE k = 2")).contains("partitions=1/2");
        session.sql("CREATE EXTERNAL TABLE undeclared (v BIGINT) STORED AS PARQUET LOCATION '" + dir + "'");
        assertThat(rows("DESCRIBE undeclared")).extracting(r -> r.get(0) + " " + r.get(1)).containsExactly("v int64", "k int32");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE wrong (v BIGINT) STORED AS PARQUET PARTITIONED BY (v)"
                + " LOCATION '" + dir + "'")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("PARTITIONED BY names 'v', but the key=value directories at " + dir
                        + " give partition columns [k]");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE bad (v BIGINT, k DOUBLE) STORED AS PARQUET"
                + " LOCATION '" + dir + "'")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("partition column 'k' of " + dir + " is declared DOUBLE");
        assertThat(rows("SELECT count(*) FROM declared")).containsExactly(List.of(6L));
    }

    @Test
    void inconsistentDirectoriesAndACorruptFileAreErrorsNamingThePath() throws Exception {
        Path dir = data.resolve("inconsistent");
        write(dir.resolve("a=1"));
        write(dir.resolve("b=2"));
        assertThatThrownBy(() -> session.read().parquet(dir.toString()))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("inconsistent partition directories")
                .hasMessageContaining(dir.resolve("a=1/part-0.parquet").toString())
                .hasMessageContaining(dir.resolve("b=2/part-0.parquet").toString());

        Path corrupt = data.resolve("corrupt");
        write(corrupt.resolve("d=1"));
        Path bad = Files.createDirectories(corrupt.resolve("d=2")).resolve("part-0.parquet");
        byte[] good = Files.readAllBytes(corrupt.resolve("d=1/part-0.parquet"));
        Files.write(bad, java.util.Arrays.copyOf(good, good.length / 2));
        session.sql("CREATE EXTERNAL TABLE corrupt STORED AS PARQUET LOCATION '" + corrupt + "'");
        assertThatThrownBy(() -> rows("SELECT sum(v) FROM corrupt"))
                .isInstanceOf(SluiceException.class).hasMessageContaining(bad.toString());
        // pruning skips the corrupt file before it is opened
        assertThat(rows("SELECT sum(v), min(d) FROM corrupt WHERE d = 1")).containsExactly(List.of(3L, 1L));
        assertThat(rows("SELECT count(*) FROM events WHERE g = 2")).containsExactly(List.of((long) HOURS * 4));
    }

    private static void write(Path partitionDir) throws Exception {
        Files.createDirectories(partitionDir);
        duck.execute("COPY (SELECT range AS v FROM range(0, 3)) TO '" + partitionDir.resolve("part-0.parquet")
                + "' (FORMAT parquet)");
    }
}
