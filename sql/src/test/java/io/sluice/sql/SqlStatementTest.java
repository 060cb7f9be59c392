package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.catalog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.source.FileFormat;
import org.junit.jupiter.api.Test;

class SqlStatementTest {
    @Test
    void createExternalTable() {
        assertThat(SqlFrontEnd.parse("CREATE EXTERNAL TABLE lineitem STORED AS PARQUET LOCATION '/data/lineitem/'", catalog()))
                .isEqualTo(external("lineitem", FileFormat.PARQUET, "/data/lineitem/"));
    }

    @Test
    void createExternalTableIsCaseInsensitiveAndKeepsQuotedText() {
        assertThat(SqlFrontEnd.parse("""
                -- register the orders
                create   external table "My Orders"
                  stored as csv
                  location 'hdfs://nn:8020/it''s here; really/orders.csv' ;""", catalog()))
                .isEqualTo(external("My Orders", FileFormat.CSV, "hdfs://nn:8020/it's here; really/orders.csv"));
        assertThat(SqlFrontEnd.parse("Create External Table Orders Stored As Parquet Location 's3a://b/o'", catalog()))
                .isEqualTo(external("Orders", FileFormat.PARQUET, "s3a://b/o"));
    }

    @Test
    void optionStringsAreUnescapedOnceInEitherDialect() {
        String ddl = "CREATE EXTERNAL TABLE t STORED AS CSV OPTIONS (escape '\\\\', delimiter '\\t') LOCATION '/d'";
        for (SqlDialect dialect : SqlDialect.values()) {
            Statement.CreateTable create = (Statement.CreateTable) SqlFrontEnd.parse(ddl, catalog(), dialect);
            assertThat(create.table().options()).as(dialect.name()).containsEntry("escape", "\\").containsEntry("delimiter", "\t");
        }
    }

    private static Statement external(String name, FileFormat format, String location) {
        return new Statement.CreateTable(new CatalogTable("default", name, java.util.List.of(), format, java.util.Map.of(),
                java.util.List.of(), location, true, null, java.util.Map.of()), false, null);
    }

    @Test
    void malformedCreateExternalTable() {
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE x STORED AS ORC LOCATION '/x'", catalog()))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown file format 'ORC'");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE x STORED AS CSV", catalog()))
                .isInstanceOf(SluiceException.class)
                .hasMessage("CREATE EXTERNAL TABLE x: LOCATION '<path>' is required (where the table's files are)");
    }

    @Test
    void createTableAsTakesItsClausesInEitherOrder() {
        Statement.CreateTable ctas = (Statement.CreateTable) SqlFrontEnd.parse(
                "create table if not exists Copy location 's3a://b/it''s' using csv as\nSELECT k, v FROM t", catalog());
        assertThat(ctas.table().name()).isEqualTo("Copy");
        assertThat(ctas.ifNotExists()).isTrue();
        assertThat(ctas.table().location()).isEqualTo("s3a://b/it's");
        assertThat(ctas.table().format()).isEqualTo(FileFormat.CSV);
        assertThat(ctas.table().external()).isTrue();
        assertThat(ctas.query().explain()).isEqualTo("""
                Projection: k, v
                  TableScan: t
                """);
        Statement.CreateTable parquet = (Statement.CreateTable) SqlFrontEnd.parse(
                "CREATE TABLE p STORED AS PARQUET LOCATION '/out/p' AS SELECT 1 AS one", catalog());
        assertThat(parquet.table().format()).isEqualTo(FileFormat.PARQUET);
        assertThat(parquet.ifNotExists()).isFalse();
    }

    @Test
    void insertFitsTheQueryToTheTableByPosition() {
        Statement.Insert insert = (Statement.Insert) SqlFrontEnd.parse(
                "INSERT INTO t SELECT k, 1, v, day, flag FROM t", catalog());
        assertThat(insert.table()).isEqualTo(SqlTestTables.T);
        assertThat(insert.mode()).isEqualTo(SaveMode.APPEND);
        assertThat(insert.plan().explain()).isEqualTo("""
                Projection: k, 1 AS v, CAST(v AS decimal(10,2)) AS d, day, flag
                  Projection: k, 1, v, day, flag
                    TableScan: t
                """);
        Statement.Insert overwrite = (Statement.Insert) SqlFrontEnd.parse(
                "INSERT OVERWRITE TABLE t (v, k) VALUES (1, 'a')", catalog());
        assertThat(overwrite.mode()).isEqualTo(SaveMode.OVERWRITE);
        assertThat(overwrite.plan().schema()).isEqualTo(SqlTestTables.T.schema());
    }

    @Test
    void malformedWrites() {
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE TABLE x USING csv", catalog()))
                .hasMessageStartingWith("CREATE TABLE x: a managed table needs its columns, as (<name> <type>, ...), or AS");
        assertThatThrownBy(() -> SqlFrontEnd.parse("INSERT INTO u SELECT k FROM t", catalog()))
                .hasMessage("INSERT INTO u: column 1 ('a') is int64 but the query gives utf8 ('k')");
        assertThatThrownBy(() -> SqlFrontEnd.parse("INSERT INTO nope VALUES (1)", catalog()))
                .hasMessageContaining("unknown table 'nope'");
    }

    @Test
    void explain() {
        Statement plain = SqlFrontEnd.parse("EXPLAIN SELECT k FROM t WHERE v > 1", catalog());
        assertThat(plain).isInstanceOf(Statement.Explain.class);
        Statement.Explain explain = (Statement.Explain) plain;
        assertThat(explain.verbose()).isFalse();
        assertThat(explain.plan().explain()).isEqualTo("""
                Projection: k
                  Filter: (v > 1)
                    TableScan: t
                """);
        Statement verbose = SqlFrontEnd.parse("explain\n  Verbose SELECT count(*) FROM t;", catalog());
        assertThat(((Statement.Explain) verbose).verbose()).isTrue();
        assertThat(((Statement.Explain) verbose).plan().explain()).isEqualTo("""
                Projection: count(*)
                  Aggregate: groupBy=[], aggr=[count(*)]
                    TableScan: t
                """);
    }

    @Test
    void explainKeepsErrorPositionsOfTheQuery() {
        assertThatThrownBy(() -> SqlFrontEnd.parse("EXPLAIN VERBOSE SELECT k FROM FROM t", catalog()))
                .isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("SQL syntax error at line 1, column 31:");
    }

    @Test
    void query() {
        assertThat(SqlFrontEnd.parse("SELECT k FROM t", catalog())).isInstanceOf(Statement.Query.class);
    }

    @Test
    void splitStatementsIgnoresSemicolonsInStringsNamesAndComments() {
        String script = """
                CREATE EXTERNAL TABLE a STORED AS CSV LOCATION '/x;y';
                -- a comment; with a semicolon
                SELECT 'a;b' AS "c;d" FROM a; ;
                /* block; comment */
                SELECT 1 FROM a -- trailing; comment
                ;
                -- only a comment;
                """;
        assertThat(SqlFrontEnd.splitStatements(script)).containsExactly(
                "CREATE EXTERNAL TABLE a STORED AS CSV LOCATION '/x;y'",
                "-- a comment; with a semicolon\nSELECT 'a;b' AS \"c;d\" FROM a",
                "/* block; comment */\nSELECT 1 FROM a -- trailing; comment");
    }

    @Test
    void splitStatementsOfEmptyScripts() {
        assertThat(SqlFrontEnd.splitStatements("")).isEmpty();
        assertThat(SqlFrontEnd.splitStatements(" ;; \n; -- nothing")).isEmpty();
        assertThat(SqlFrontEnd.splitStatements("SELECT 'it''s;' FROM t")).containsExactly("SELECT 'it''s;' FROM t");
    }

    @Test
    void parseTakesExactlyOneStatement() {
        assertThatThrownBy(() -> SqlFrontEnd.parse("SELECT k FROM t; SELECT v FROM t", catalog()))
                .isInstanceOf(SluiceException.class)
                .hasMessage("expected one SQL statement, found 2");
        assertThatThrownBy(() -> SqlFrontEnd.parse(" -- nothing\n;", catalog()))
                .isInstanceOf(SluiceException.class)
                .hasMessage("empty SQL statement");
    }

    @Test
    void inMemoryCatalog() {
        InMemoryCatalog catalog = catalog();
        assertThat(catalog.tableNames()).containsExactly("t", "u");
        assertThat(catalog.table("T")).isSameAs(SqlTestTables.T);
        assertThat(catalog.drop("U")).isTrue();
        assertThat(catalog.drop("u")).isFalse();
        assertThat(catalog.tableNames()).containsExactly("t");
    }
}
