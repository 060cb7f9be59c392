package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog statements on an embedded cluster that keeps its catalog in a data directory:
 * databases, managed tables (files under {@code <data-dir>/warehouse/<db>.db/<table>}), external
 * tables, views, INSERT with static and dynamic partitions, ALTER, SHOW and DESCRIBE; results and
 * the files written compared with DuckDB on the same data; a second cluster on the same directory
 * finds everything but the temporary view; bad input is refused by name and the cluster goes on.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CatalogStatementsIT {
    @TempDir
    static Path data;
    private static Path dataDir;
    private static Path source;
    private static Path externalDir;
    private static DuckDbOracle duck;
    private static Session session;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        dataDir = data.resolve("sluice");
        source = data.resolve("src.parquet");
        externalDir = data.resolve("external");
        Files.createDirectories(externalDir);
        duck.execute("COPY (SELECT range AS id, CAST(range % 7 AS DOUBLE) * 1.5 AS amount, 'r' || (range % 3) AS region"
                + " FROM range(0, 3000)) TO '" + source + "' (FORMAT parquet)");
        duck.execute("COPY (SELECT range AS k, 'v' || range AS v FROM range(0, 50)) TO '" + externalDir.resolve("e.parquet")
                + "' (FORMAT parquet)");
        session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(3).withDataDir(dataDir));
        session.sql("CREATE EXTERNAL TABLE src_files STORED AS PARQUET LOCATION '" + source + "'");
        session.sql("CREATE TEMPORARY VIEW src AS SELECT * FROM src_files");
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    private static List<List<Object>> rows(String sql) {
        return DuckDbOracle.normalize(session.sql(sql).collect());
    }

    private static List<List<Object>> duckRows(String sql) throws Exception {
        return duck.query(sql);
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString())
                    .filter(p -> !p.endsWith(".crc") && !p.startsWith("_")).sorted().toList();
        }
    }

    @Test
    @Order(1)
    void managedPartitionedTableTakesStaticAndDynamicInserts() throws Exception {
        session.sql("CREATE DATABASE sales COMMENT 'money'");
        session.sql("USE sales");
        session.sql("CREATE TABLE orders (id BIGINT NOT NULL COMMENT 'key', amount DOUBLE, region STRING) USING parquet"
                + " PARTITIONED BY (region) TBLPROPERTIES ('owner' 'ops')");
        Path table = dataDir.resolve("warehouse/sales.db/orders");
        assertThat(table).isEmptyDirectory();
        assertThat(rows("SELECT count(*) FROM orders")).containsExactly(List.of(0L));

        session.sql("INSERT INTO orders SELECT id, amount, region FROM src WHERE id < 1000");
        session.sql("INSERT INTO TABLE sales.orders PARTITION (region = 'r9') SELECT id, amount FROM src WHERE id >= 2900");
        session.sql("INSERT INTO orders PARTITION (region) (amount, id, region) SELECT amount, id, 'r8' FROM src WHERE id"
                + " BETWEEN 2000 AND 2009");
        assertThat(files(table)).allMatch(f -> f.matches("region=r[01289]/part-.*\\.parquet"));

        String expected = "SELECT region, count(*), sum(amount), min(id) FROM ("
                + " SELECT id, amount, region FROM '" + source + "' WHERE id < 1000"
                + " UNION ALL SELECT id, amount, 'r9' FROM '" + source + "' WHERE id >= 2900"
                + " UNION ALL SELECT id, amount, 'r8' FROM '" + source + "' WHERE id BETWEEN 2000 AND 2009)"
                + " GROUP BY region ORDER BY region";
        String query = "SELECT region, count(*), sum(amount), min(id) FROM orders GROUP BY region ORDER BY region";
        assertThat(rows(query)).isEqualTo(duckRows(expected));
        // the files are where a Hive-partitioned reader finds the same rows
        assertThat(duckRows("SELECT region, count(*), sum(amount), min(id) FROM read_parquet('" + table
                + "/**/*.parquet', hive_partitioning = true) GROUP BY region ORDER BY region")).isEqualTo(duckRows(expected));
    }

    @Test
    @Order(2)
    void insertOverwriteOfAPartitionReplacesOnlyThatPartition() throws Exception {
        session.sql("INSERT OVERWRITE TABLE sales.orders PARTITION (region = 'r9') SELECT id, amount * 2 FROM src"
                + " WHERE id < 5");
        assertThat(rows("SELECT region, count(*), sum(amount) FROM sales.orders WHERE region IN ('r8', 'r9')"
                + " GROUP BY region ORDER BY region")).isEqualTo(duckRows("SELECT region, count(*), sum(amount) FROM ("
                + " SELECT amount, 'r8' AS region FROM '" + source + "' WHERE id BETWEEN 2000 AND 2009"
                + " UNION ALL SELECT amount * 2, 'r9' FROM '" + source + "' WHERE id < 5) GROUP BY region ORDER BY region"));
        assertThat(rows("SELECT count(*) FROM sales.orders WHERE region = 'r0'"))
                .isEqualTo(duckRows("SELECT count(*) FROM '" + source + "' WHERE id < 1000 AND region = 'r0'"));
    }

    @Test
    @Order(3)
    void createTableAsWritesUnderTheWarehouseAndDropRemovesIt() throws Exception {
        session.sql("CREATE TABLE default.totals USING csv OPTIONS (header 'true') AS SELECT region, sum(amount) AS total"
                + " FROM src GROUP BY region");
        Path table = dataDir.resolve("warehouse/default.db/totals");
        assertThat(files(table)).isNotEmpty().allMatch(f -> f.endsWith(".csv"));
        assertThat(rows("SELECT region, total FROM default.totals ORDER BY region")).isEqualTo(
                duckRows("SELECT region, sum(amount) FROM '" + source + "' GROUP BY region ORDER BY region"));
        assertThat(rows("SHOW TABLES IN default")).contains(List.of("totals", "table"));
        assertThat(session.sql("DROP TABLE default.totals").collect().rows().get(0).get(0))
                .isEqualTo("dropped table default.totals");
        assertThat(table).doesNotExist();
    }

    @Test
    @Order(4)
    void externalTableKeepsItsFilesWhenDropped() throws Exception {
        session.sql("CREATE EXTERNAL TABLE sales.ext_once STORED AS PARQUET LOCATION '" + externalDir + "'");
        assertThat(rows("SELECT count(*), sum(k) FROM sales.ext_once"))
                .isEqualTo(duckRows("SELECT count(*), sum(k) FROM '" + externalDir + "/*.parquet'"));
        session.sql("DROP TABLE sales.ext_once");
        assertThat(files(externalDir)).containsExactly("e.parquet");
        session.sql("CREATE TABLE sales.ext (k BIGINT, v STRING) USING parquet LOCATION '" + externalDir + "'");
        assertThat(rows("DESCRIBE EXTENDED sales.ext")).contains(List.of("Type", "EXTERNAL", ""),
                List.of("Location", externalDir.toString(), ""));
    }

    @Test
    @Order(5)
    void viewsShowAndDescribe() throws Exception {
        session.sql("CREATE VIEW sales.big_orders (id, amount) COMMENT 'large' AS SELECT id, amount FROM orders"
                + " WHERE amount > 7");
        assertThat(rows("SELECT count(*), sum(amount) FROM sales.big_orders")).isEqualTo(duckRows(
                "SELECT count(*), sum(amount) FROM (SELECT id, amount FROM '" + source + "' WHERE id < 1000"
                        + " UNION ALL SELECT id, amount FROM '" + source + "' WHERE id BETWEEN 2000 AND 2009"
                        + " UNION ALL SELECT id, amount * 2 FROM '" + source + "' WHERE id < 5) WHERE amount > 7"));
        assertThat(rows("SHOW TABLES IN sales LIKE 'big*|ord*'")).containsExactly(List.of("big_orders", "view"),
                List.of("orders", "table"));
        assertThat(rows("SHOW DATABASES")).containsExactly(List.of("default"), List.of("sales"));
        assertThat(rows("SHOW DATABASES LIKE 'sa*'")).containsExactly(List.of("sales"));
        assertThat(rows("DESCRIBE sales.orders")).containsExactly(List.of("id", "int64"), List.of("amount", "float64"),
                List.of("region", "utf8"));
        assertThat(rows("DESCRIBE EXTENDED sales.orders").subList(0, 3)).containsExactly(List.of("id", "int64", "key"),
                List.of("amount", "float64", ""), List.of("region", "utf8", ""));
        assertThat(rows("DESCRIBE EXTENDED orders")).contains(List.of("Type", "MANAGED", ""),
                List.of("Partition Columns", "region", ""), List.of("Table Properties", "('owner' 'ops')", ""));
        assertThat(rows("SHOW CREATE TABLE orders").get(0).get(0)).isEqualTo("""
                CREATE TABLE sales.orders (
                  id BIGINT NOT NULL COMMENT 'key',
                  amount DOUBLE,
                  region STRING)
                USING parquet
                PARTITIONED BY (region)
                LOCATION '%s'
                TBLPROPERTIES ('owner' 'ops')""".formatted(dataDir.resolve("warehouse/sales.db/orders")));
    }

    @Test
    @Order(6)
    void alterTableRenamesAndAddsColumns() throws Exception {
        session.sql("CREATE TABLE sales.tmp (a INT) USING parquet");
        session.sql("INSERT INTO sales.tmp VALUES (1), (2)");
        session.sql("ALTER TABLE sales.tmp RENAME TO sales.kept");
        assertThat(dataDir.resolve("warehouse/sales.db/tmp")).doesNotExist();
        assertThat(files(dataDir.resolve("warehouse/sales.db/kept"))).isNotEmpty();
        session.sql("ALTER TABLE sales.kept ADD COLUMNS (b STRING COMMENT 'new')");
        session.sql("INSERT INTO sales.kept VALUES (3, 'x')");
        assertThat(rows("SELECT a, b FROM sales.kept ORDER BY a")).containsExactly(Arrays.asList(1L, null),
                Arrays.asList(2L, null), List.of(3L, "x"));
    }

    @Test
    @Order(7)
    void badInputIsRefusedByNameAndTheClusterGoesOn() {
        assertThatThrownBy(() -> session.sql("SELECT * FROM sales.ordrs")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown table 'sales.ordrs'; did you mean 'orders'?");
        assertThatThrownBy(() -> session.sql("SELECT * FROM sals.orders")).hasMessageContaining(
                "unknown database 'sals'; did you mean 'sales'?");
        assertThatThrownBy(() -> session.sql("USE sals")).hasMessageContaining("unknown database 'sals'; did you mean 'sales'?");
        assertThatThrownBy(() -> session.sql("DROP TABLE sales.nothing_here")).hasMessageContaining(
                "cannot drop table 'sales.nothing_here': unknown table 'sales.nothing_here'");
        assertThat(rows("DROP TABLE IF EXISTS sales.nothing_here")).containsExactly(List.of("table sales.nothing_here does not exist"));
        assertThatThrownBy(() -> session.sql("ALTER TABLE sales.orders ADD COLUMNS (AMOUNT INT)")).hasMessage(
                "ALTER TABLE sales.orders ADD COLUMNS: column 'AMOUNT' already exists; columns: id, amount, region");
        assertThatThrownBy(() -> session.sql("INSERT INTO sales.orders PARTITION (id = 1) SELECT 1.0, 'x'")).hasMessage(
                "INSERT INTO sales.orders: PARTITION names 'id', which is not a partition column of sales.orders"
                        + " (partition columns: region)");
        assertThatThrownBy(() -> session.sql("DROP DATABASE sales")).hasMessageStartingWith(
                "database 'sales' is not empty (it holds big_orders, ext, kept, orders); use DROP DATABASE sales CASCADE");
        assertThatThrownBy(() -> session.sql("CREATE TABLE sales.orders (a INT)")).hasMessage(
                "cannot create table sales.orders: a table or view of that name already exists");
        assertThatThrownBy(() -> session.sql("CREATE TABLE t (a INT,\n b)")).hasMessage(
                "SQL syntax error in CREATE TABLE t, column 'b': expected a type, found ')' at line 2, column 3");
        assertThat(rows("SELECT count(*) FROM sales.orders WHERE region = 'r9'")).containsExactly(List.of(5L));
    }

    @Test
    @Order(8)
    void aNewClusterOnTheSameDataDirectoryFindsTheCatalog() throws Exception {
        List<List<Object>> before = rows("SELECT region, count(*), sum(amount) FROM sales.orders GROUP BY region ORDER BY region");
        List<List<Object>> view = rows("SELECT count(*) FROM sales.big_orders");
        session.close();
        session = Session.local(LocalCluster.Options.of(1).withDataDir(dataDir));
        assertThat(rows("SHOW DATABASES")).containsExactly(List.of("default"), List.of("sales"));
        assertThat(rows("SHOW TABLES IN sales")).containsExactly(List.of("big_orders", "view"), List.of("ext", "table"),
                List.of("kept", "table"), List.of("orders", "table"));
        assertThat(rows("SELECT region, count(*), sum(amount) FROM sales.orders GROUP BY region ORDER BY region"))
                .isEqualTo(before);
        assertThat(rows("SELECT count(*) FROM sales.big_orders")).isEqualTo(view);
        assertThat(rows("SELECT count(*) FROM sales.ext")).containsExactly(List.of(50L));
        assertThatThrownBy(() -> session.sql("SELECT * FROM src")).hasMessageContaining("unknown table 'src'");
        assertThat(Files.readString(dataDir.resolve("catalog/sales.json"))).contains("\"format\" : \"sluice-catalog\"",
                "\"version\" : 1");
        session.sql("DROP DATABASE sales CASCADE");
        assertThat(dataDir.resolve("warehouse/sales.db")).doesNotExist();
        assertThat(dataDir.resolve("catalog/sales.json")).doesNotExist();
        assertThat(files(externalDir)).containsExactly("e.parquet");
    }
}
