package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import org.junit.jupiter.api.Test;

/** Whole catalog statements parsed into their syntax tree, printed as text; and syntax errors naming line and column. */
class DdlParserTest {
    private static String ast(String sql) {
        DdlSyntax syntax = DdlParser.parse(sql, StatementSplitter.skipTrivia(sql, 0));
        return syntax == null ? "(not DDL)" : syntax.toString();
    }

    @Test
    void createTableWithEveryClause() {
        assertThat(ast("""
                CREATE TABLE IF NOT EXISTS `sales db`.orders (
                  id BIGINT NOT NULL COMMENT 'the key',
                  `unit price` DECIMAL(12, 2),
                  tags ARRAY<STRING>,
                  attrs MAP<STRING, INT>,
                  addr STRUCT<city: STRING, zip INT>,
                  day DATE)
                USING parquet
                OPTIONS (compression 'zstd')
                PARTITIONED BY (day)
                LOCATION '/data/orders'
                COMMENT 'all orders'
                TBLPROPERTIES ('owner' = 'ops', created.by 'me')""")).isEqualTo("CreateTable[name=`sales db`.orders,"
                + " external=false, ifNotExists=true, columns=[id BIGINT NOT NULL COMMENT 'the key', `unit price`"
                + " DECIMAL(12,2), tags ARRAY<STRING>, attrs MAP<STRING, INT>, addr STRUCT<city: STRING, zip: INT>,"
                + " day DATE], format=PARQUET, options={compression=zstd}, partitionedBy=[day], location=/data/orders,"
                + " comment=all orders, properties={owner=ops, created.by=me}, queryStart=-1]");
    }

    @Test
    void createTableAsKeepsWhereTheQueryStarts() {
        String sql = "create table t using csv partitioned by (k) as select 1 as k, 2 as v";
        assertThat(ast(sql)).isEqualTo("CreateTable[name=t, external=false, ifNotExists=false, columns=[], format=CSV,"
                + " options={}, partitionedBy=[k], location=null, comment=null, properties={}, queryStart="
                + sql.indexOf("select") + "]");
        assertThat(ast("CREATE EXTERNAL TABLE e STORED AS JSON OPTIONS (path 's3a://b/e')")).isEqualTo("CreateTable[name=e,"
                + " external=true, ifNotExists=false, columns=[], format=JSON, options={}, partitionedBy=[],"
                + " location=s3a://b/e, comment=null, properties={}, queryStart=-1]");
        assertThat(ast("CREATE TABLE h (a INT) PARTITIONED BY (p STRING)")).isEqualTo("CreateTable[name=h, external=false,"
                + " ifNotExists=false, columns=[a INT, p STRING], format=null, options={}, partitionedBy=[p], location=null,"
                + " comment=null, properties={}, queryStart=-1]");
    }

    @Test
    void viewsDropsAndAlters() {
        String view = "CREATE OR REPLACE TEMPORARY VIEW v (a COMMENT 'x', b) COMMENT 'two' AS SELECT 1, 2";
        assertThat(ast(view)).isEqualTo("CreateView[name=v, orReplace=true, temporary=true, ifNotExists=false,"
                + " columns=[a, b], comment=two, queryStart=" + view.indexOf("SELECT") + "]");
        assertThat(ast("CREATE VIEW IF NOT EXISTS db.v AS SELECT 1")).startsWith("CreateView[name=db.v, orReplace=false,"
                + " temporary=false, ifNotExists=true");
        assertThat(ast("DROP TABLE IF EXISTS db.t PURGE")).isEqualTo("Drop[view=false, name=db.t, ifExists=true]");
        assertThat(ast("drop view v;")).isEqualTo("Drop[view=true, name=v, ifExists=false]");
        assertThat(ast("ALTER TABLE t RENAME TO db2.u")).isEqualTo("RenameTable[from=t, to=db2.u]");
        assertThat(ast("ALTER TABLE t ADD COLUMNS (c STRING COMMENT 'new', d DOUBLE)"))
                .isEqualTo("AddColumns[table=t, columns=[c STRING COMMENT 'new', d DOUBLE]]");
    }

    @Test
    void showDescribeDatabasesAndUse() {
        assertThat(ast("SHOW TABLES")).isEqualTo("ShowTables[database=null, pattern=null]");
        assertThat(ast("SHOW TABLES IN sales LIKE 'ord*|cust*'")).isEqualTo("ShowTables[database=sales, pattern=ord*|cust*]");
        assertThat(ast("show tables from sales 'x*'")).isEqualTo("ShowTables[database=sales, pattern=x*]");
        assertThat(ast("SHOW CREATE TABLE db.t")).isEqualTo("ShowCreateTable[name=db.t]");
        assertThat(ast("DESCRIBE TABLE EXTENDED db.t")).isEqualTo("Describe[name=db.t, extended=true]");
        assertThat(ast("DESC t")).isEqualTo("Describe[name=t, extended=false]");
        assertThat(ast("CREATE SCHEMA IF NOT EXISTS sales COMMENT 'money' LOCATION '/w/sales'"))
                .isEqualTo("CreateDatabase[name=sales, ifNotExists=true, location=/w/sales, comment=money]");
        assertThat(ast("DROP DATABASE IF EXISTS sales CASCADE")).isEqualTo("DropDatabase[name=sales, ifExists=true, cascade=true]");
        assertThat(ast("SHOW DATABASES LIKE 's*'")).isEqualTo("ShowDatabases[pattern=s*]");
        assertThat(ast("USE sales")).isEqualTo("Use[database=sales]");
        assertThat(ast("USE DATABASE `sales`")).isEqualTo("Use[database=sales]");
    }

    @Test
    void insertWithStaticAndDynamicPartitions() {
        String sql = "INSERT OVERWRITE TABLE t PARTITION (day = '2024-01-01', region) (a, b) SELECT 1, 2, 'eu'";
        assertThat(ast(sql)).isEqualTo("Insert[table=t, overwrite=true, partition={day=2024-01-01, region=null},"
                + " columns=[a, b], queryStart=" + sql.indexOf("SELECT") + "]");
        String parenthesized = "INSERT INTO db.t (SELECT 1)";
        assertThat(ast(parenthesized)).isEqualTo("Insert[table=db.t, overwrite=false, partition={}, columns=[],"
                + " queryStart=" + parenthesized.indexOf("(") + "]");
    }

    @Test
    void queriesAndOtherStatementsAreNotDdl() {
        assertThat(ast("SELECT 1")).isEqualTo("(not DDL)");
        assertThat(ast("SHOW FUNCTIONS")).isEqualTo("(not DDL)");
        assertThat(ast("DESCRIBE FUNCTION upper")).isEqualTo("(not DDL)");
        assertThat(ast("SELECT 'unterminated")).isEqualTo("(not DDL)");
    }

    @Test
    void syntaxErrorsNameLineColumnAndWhatWasExpected() {
        assertThatThrownBy(() -> ast("CREATE TABLE t (a INT,\n  b)")).isInstanceOf(SluiceException.class)
                .hasMessage("SQL syntax error in CREATE TABLE t, column 'b': expected a type, found ')' at line 2, column 4");
        assertThatThrownBy(() -> ast("CREATE TABLE t (a INT) USING parquet\nLOCATION")).hasMessage(
                "SQL syntax error in CREATE TABLE t: expected a 'quoted string', found the end of the statement at line 2,"
                        + " column 9");
        assertThatThrownBy(() -> ast("DROP INDEX i")).hasMessage(
                "SQL syntax error in DROP: expected TABLE, VIEW or DATABASE, found 'INDEX' at line 1, column 6");
        assertThatThrownBy(() -> ast("ALTER TABLE t DROP COLUMN c")).hasMessage(
                "SQL syntax error in ALTER TABLE t: expected RENAME TO or ADD COLUMNS, found 'DROP' at line 1, column 15");
        assertThatThrownBy(() -> ast("SHOW TABLES IN db LIKE")).hasMessage(
                "SQL syntax error in SHOW TABLES: expected a 'quoted string', found the end of the statement at line 1,"
                        + " column 23");
        assertThatThrownBy(() -> ast("CREATE TEMP TABLE t (a INT)")).hasMessage(
                "SQL syntax error in CREATE TEMPORARY: expected VIEW, found 'TABLE' at line 1, column 13");
        assertThatThrownBy(() -> ast("INSERT INTO t PARTITION (k = ) SELECT 1")).hasMessage(
                "SQL syntax error in INSERT INTO t: expected a value for partition column 'k', found ')' at line 1, column 30");
        assertThatThrownBy(() -> ast("DROP DATABASE d RESTRICT CASCADE")).hasMessage(
                "SQL syntax error in DROP DATABASE d: expected CASCADE, RESTRICT or the end, found 'CASCADE' at line 1,"
                        + " column 26");
    }

    @Test
    void printedDefinitionsParseBackToTheSameTable() {
        CatalogTable table = ((Statement.CreateTable) SqlFrontEnd.parse("CREATE TABLE `odd name` (`a b` INT NOT NULL"
                + " COMMENT 'it''s', m MAP<STRING, ARRAY<BIGINT>>, k STRING) USING json OPTIONS (compression 'gzip')"
                + " PARTITIONED BY (k) LOCATION '/x/y' COMMENT 'c\\\\d' TBLPROPERTIES ('p' 'q')", new InMemoryCatalog())).table();
        assertThat(table.createSql()).isEqualTo("""
                CREATE EXTERNAL TABLE default.`odd name` (
                  `a b` INT NOT NULL COMMENT 'it\\'s',
                  m MAP<STRING, ARRAY<BIGINT>>,
                  k STRING)
                USING json
                OPTIONS ('compression' 'gzip')
                PARTITIONED BY (k)
                LOCATION '/x/y'
                COMMENT 'c\\\\d'
                TBLPROPERTIES ('p' 'q')""");
        CatalogTable again = ((Statement.CreateTable) SqlFrontEnd.parse(table.createSql(), new InMemoryCatalog())).table();
        assertThat(again).isEqualTo(table);
    }
}
