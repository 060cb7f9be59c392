package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.catalog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.source.FileFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Column lists, OPTIONS and Spark's USING form of CREATE [EXTERNAL] TABLE, and their syntax errors. */
class TableDdlTest {
    @Test
    void columnsOptionsAndLocationInAnyOrder() {
        CatalogTable create = ((Statement.CreateTable) SqlFrontEnd.parse("""
                CREATE EXTERNAL TABLE `my t` (a INT, "B b" BIGINT NOT NULL, c STRING COMMENT 'free text',
                    d DATE, e DECIMAL(12, 2), f VARCHAR(10), g BOOLEAN, h TIMESTAMP, i DOUBLE, j FLOAT, k LONG,
                    l INTEGER, m DECIMAL(38,10))
                  OPTIONS (delimiter = '\\t', "nullValue" 'it''s \\'NA\\'', header true, spark.sql.x '1', 'quoted key' 2)
                  STORED AS csv LOCATION '/data/t.csv';""", catalog())).table();
        assertThat(create.name()).isEqualTo("my t");
        assertThat(create.external()).isTrue();
        assertThat(create.format()).isEqualTo(FileFormat.CSV);
        assertThat(create.location()).isEqualTo("/data/t.csv");
        assertThat(create.options()).containsExactly(Map.entry("delimiter", "\t"), Map.entry("header", "true"),
                Map.entry("nullvalue", "it's 'NA'"), Map.entry("quoted key", "2"), Map.entry("spark.sql.x", "1"));
        assertThat(create.schema()).isEqualTo(Schema.of(new Field("a", DataType.INT32), new Field("B b", DataType.INT64),
                new Field("c", DataType.UTF8), new Field("d", DataType.DATE32), new Field("e", DataType.decimal(12, 2)),
                new Field("f", DataType.UTF8), new Field("g", DataType.BOOL), new Field("h", DataType.TIMESTAMP),
                new Field("i", DataType.FLOAT64), new Field("j", DataType.FLOAT64), new Field("k", DataType.INT64),
                new Field("l", DataType.INT32), new Field("m", DataType.decimal(38, 10))));
    }

    @Test
    void sparksUsingFormTakesThePathOption() {
        Statement.CreateTable create = (Statement.CreateTable) SqlFrontEnd.parse(
                "CREATE TABLE people (name STRING, age INT) USING csv OPTIONS (path '/data/people.csv', header 'true')",
                catalog());
        assertThat(create).isEqualTo(new Statement.CreateTable(new CatalogTable("default", "people",
                List.of(new TableColumn("name", DataType.UTF8, false, null), new TableColumn("age", DataType.INT32, false, null)),
                FileFormat.CSV, Map.of("header", "true"), List.of(), "/data/people.csv", true, null, Map.of()), false, null));
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE TABLE p USING csv OPTIONS (path '/a') LOCATION '/b'", catalog()))
                .hasMessage("CREATE TABLE p: give the path once, as LOCATION or as the option 'path'");
    }

    @Test
    void createTableAsCarriesWriterOptions() {
        Statement.CreateTable ctas = (Statement.CreateTable) SqlFrontEnd.parse("CREATE TABLE out STORED AS CSV"
                + " OPTIONS (delimiter '|', header 'false') LOCATION '/out' AS SELECT k FROM t", catalog());
        assertThat(ctas.table().options()).containsExactly(Map.entry("delimiter", "|"), Map.entry("header", "false"));
        assertThat(ctas.query().schema().names()).containsExactly("k");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE TABLE out (k INT) STORED AS CSV LOCATION '/out' AS SELECT k FROM t",
                catalog())).hasMessageContaining("a column list cannot go with AS <query>");
    }

    @Test
    void createTableAsTakesPartitionedByInAnyClauseOrder() {
        Statement.CreateTable ctas = (Statement.CreateTable) SqlFrontEnd.parse("CREATE TABLE out PARTITIONED BY (K)"
                + " STORED AS PARQUET LOCATION '/out' AS SELECT k, v FROM t", catalog());
        assertThat(ctas.table().partitionedBy()).containsExactly("k");
        assertThat(ctas.table().schema().names()).containsExactly("v", "k");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE TABLE out PARTITIONED BY (k) PARTITIONED BY (k) LOCATION '/out'"
                + " AS SELECT k FROM t", catalog())).hasMessageContaining("PARTITIONED BY is given twice");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE TABLE out PARTITIONED BY (nope) LOCATION '/out' AS SELECT k FROM t",
                catalog())).hasMessageContaining("nope");
    }

    @Test
    void schemaStringsAsTheDataFrameReaderTakesThem() {
        assertThat(TableDdl.columns("a INT, b string, `c d` decimal(5,1)")).isEqualTo(Schema.of(
                new Field("a", DataType.INT32), new Field("b", DataType.UTF8), new Field("c d", DataType.decimal(5, 1))));
        assertThatThrownBy(() -> TableDdl.columns("a INT b STRING"))
                .hasMessage("SQL syntax error in schema 'a INT b STRING': expected ',' or the end, found 'b' at line 1, column 7");
        assertThatThrownBy(() -> TableDdl.columns("a INT, a STRING")).hasMessageStartingWith("schema 'a INT, a STRING': ");
    }

    @Test
    void syntaxErrorsNameWhatAndWhere() {
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE t (a INTT) STORED AS CSV LOCATION '/x'", catalog()))
                .isInstanceOf(SluiceException.class).hasMessageStartingWith(
                        "CREATE TABLE t, column 'a': unknown type 'INTT' at line 1, column 28; known types: INT, INTEGER,");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE t (a INT STORED AS CSV LOCATION '/x'", catalog()))
                .hasMessage("SQL syntax error in CREATE TABLE t: expected ')', found 'STORED' at line 1, column 32");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE t STORED AS CSV OPTIONS (header 'true'"
                + " LOCATION '/x'", catalog())).hasMessage("SQL syntax error in CREATE TABLE t: expected ')', found"
                + " 'LOCATION' at line 1, column 62");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE t STORED AS CSV OPTIONS (header 'true)",
                catalog())).hasMessage("SQL syntax error: unterminated string starting at line 1, column 55");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE t STORED AS CSV STORED AS PARQUET LOCATION '/x'",
                catalog())).hasMessageContaining("CREATE TABLE t: STORED AS / USING is given twice");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE t STORED AS CSV LOCATION '/x'\n  ROW FORMAT",
                catalog())).hasMessage("SQL syntax error in CREATE TABLE t: expected USING, STORED AS, OPTIONS, PARTITIONED BY,"
                + " LOCATION, COMMENT, TBLPROPERTIES or AS <query>, found 'ROW' at line 2, column 3");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE EXTERNAL TABLE t (a DECIMAL(50, 2)) STORED AS CSV LOCATION '/x'",
                catalog())).hasMessageStartingWith("CREATE TABLE t, column 'a': DECIMAL(50,2): ");
    }
}
