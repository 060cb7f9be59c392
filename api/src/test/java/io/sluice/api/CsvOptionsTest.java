package io.sluice.api;

import static io.sluice.api.Functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Table options and CSV options on the embedded cluster, against DuckDB's {@code read_csv} with the
 * same options on the same files (written by DuckDB's {@code COPY … (FORMAT csv, …)}): delimiters,
 * NULL text, date formats, escapes, no header, declared columns, the three bad-row modes; writes
 * with options read back by DuckDB. Every bad input is refused with the thing at fault named, and the
 * cluster keeps serving.
 */
class CsvOptionsTest {
    private static final String ROWS = "SELECT range::INTEGER AS id,"
            + " CASE WHEN range % 7 = 0 THEN NULL ELSE 'n|' || (range % 13) || '\"q\"' END AS name,"
            + " CASE WHEN range % 11 = 0 THEN NULL ELSE DATE '2021-03-01' + CAST(range % 400 AS INTEGER) END AS d,"
            + " CAST(range * 1.5 - 700 AS DECIMAL(10,2)) AS amount, range % 3 = 0 AS flag FROM range(2000)";
    private static final String COLUMNS = "{'id': 'INTEGER', 'name': 'VARCHAR', 'd': 'DATE', 'amount': 'DECIMAL(10,2)',"
            + " 'flag': 'BOOLEAN'}";

    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static Session session;
    private static Path pipe;
    private static Path tabs;
    private static Path escaped;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        session = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2)));
        pipe = data.resolve("pipe.csv");
        duck.execute("COPY (" + ROWS + ") TO '" + pipe + "' (FORMAT csv, DELIMITER '|', HEADER, NULLSTR 'NA',"
                + " DATEFORMAT '%d/%m/%Y')");
        tabs = data.resolve("tabs.tsv");
        duck.execute("COPY (" + ROWS + ") TO '" + tabs + "' (FORMAT csv, DELIMITER '\t', HEADER false)");
        escaped = data.resolve("escaped.csv");
        duck.execute("COPY (" + ROWS + ") TO '" + escaped + "' (FORMAT csv, HEADER, QUOTE '''', ESCAPE '\\')");
        session.sql("CREATE EXTERNAL TABLE read_back STORED AS CSV OPTIONS (delimiter '|', nullValue 'NA') LOCATION '"
                + pipe + "'");
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

    private static List<List<Object>> sluice(String sql) {
        return DuckDbOracle.normalize(session.sql(sql).collect());
    }

    @Test
    void declaredColumnsAndOptionsReadWhatDuckDbReads() throws Exception {
        session.sql("CREATE EXTERNAL TABLE pipe (id INT, name STRING, `d` DATE, amount DECIMAL(10, 2), flag BOOLEAN)"
                + " STORED AS CSV OPTIONS (delimiter '|', 'nullValue' = 'NA', dateFormat 'dd/MM/yyyy')"
                + " LOCATION '" + pipe + "'");
        List<List<Object>> expected = duck.query("SELECT * FROM read_csv('" + pipe + "', delim = '|', header = true,"
                + " nullstr = 'NA', dateformat = '%d/%m/%Y', columns = " + COLUMNS + ") ORDER BY id");
        assertThat(expected).hasSize(2000).anySatisfy(row -> assertThat(row).containsNull());
        assertThat(sluice("SELECT * FROM pipe ORDER BY id")).isEqualTo(expected);
        assertThat(session.sql("DESCRIBE pipe").collect().rows()).extracting(r -> r.get(1))
                .containsExactly("int32", "utf8", "date32", "decimal(10,2)", "bool");
    }

    @Test
    void inferredTypesHonourTheDateFormatAndTheNullText() throws Exception {
        session.sql("CREATE EXTERNAL TABLE pipe_inferred STORED AS CSV OPTIONS (sep = '|', nullvalue 'NA',"
                + " DATEFORMAT 'dd/MM/yyyy') LOCATION '" + pipe + "'");
        String summary = "SELECT count(*), count(name), count(d), min(d), max(d), sum(amount), sum(CASE WHEN flag THEN 1 ELSE 0 END)"
                + " FROM ";
        assertThat(sluice(summary + "pipe_inferred")).isEqualTo(duck.query(summary + "read_csv('" + pipe
                + "', delim = '|', header = true, nullstr = 'NA', dateformat = '%d/%m/%Y', columns = " + COLUMNS + ")"));
    }

    @Test
    void tabSeparatedWithoutHeaderAndBackslashEscapes() throws Exception {
        session.sql("CREATE EXTERNAL TABLE tabs STORED AS CSV OPTIONS (delimiter '\\t', header 'false') LOCATION '"
                + tabs + "'");
        assertThat(sluice("SELECT _c0, _c1, _c2, _c4 FROM tabs ORDER BY _c0")).isEqualTo(duck.query(
                "SELECT id, name, d, flag FROM read_csv('" + tabs + "', delim = '\t', header = false, columns = "
                        + COLUMNS + ") ORDER BY id"));
        session.sql("CREATE EXTERNAL TABLE escaped (id BIGINT, name VARCHAR(20), d DATE, amount DOUBLE, flag BOOLEAN)"
                + " STORED AS CSV OPTIONS (quote '''', escape '\\\\') LOCATION '" + escaped + "'");
        assertThat(sluice("SELECT id, name, d FROM escaped WHERE name LIKE '%\"%' ORDER BY id")).isEqualTo(duck.query(
                "SELECT id, name, d FROM read_csv('" + escaped + "', header = true, quote = '''', escape = '\\',"
                        + " columns = " + COLUMNS + ") WHERE name LIKE '%\"%' ORDER BY id")).hasSizeGreaterThan(100);
    }

    @Test
    void dataFrameReaderTakesOptionsAndASchema() throws Exception {
        DataFrame frame = session.read().format("csv").option("delimiter", "|").options(Map.of("NullValue", "NA"))
                .option("dateFormat", "dd/MM/yyyy").schema("id INT, name STRING, d DATE, amount DECIMAL(10,2), flag BOOLEAN")
                .load(pipe.toString());
        assertThat(DuckDbOracle.normalize(frame.filter(col("flag")).orderBy("id").collect())).isEqualTo(duck.query(
                "SELECT * FROM read_csv('" + pipe + "', delim = '|', header = true, nullstr = 'NA',"
                        + " dateformat = '%d/%m/%Y', columns = " + COLUMNS + ") WHERE flag ORDER BY id"));
        DataFrame tsv = session.read().option("header", false).option("sep", "\t").csv(tabs.toString());
        assertThat(tsv.collect().rows()).hasSize(2000);
    }

    @Test
    void writerOptionsReadBackInDuckDbAndSluice() throws Exception {
        session.sql("CREATE EXTERNAL TABLE src (id INT, name STRING, d DATE, amount DECIMAL(10,2), flag BOOLEAN)"
                + " STORED AS CSV OPTIONS (delimiter '|', nullValue 'NA', dateFormat 'dd/MM/yyyy') LOCATION '" + pipe + "'");
        Path out = data.resolve("written");
        session.sql("CREATE TABLE written STORED AS CSV OPTIONS (delimiter ';', header 'false', nullValue 'NULL',"
                + " dateFormat 'yyyy/MM/dd') LOCATION '" + out + "' AS SELECT id, name, d, amount, flag FROM src");
        List<List<Object>> expected = duck.query("SELECT * FROM read_csv('" + pipe + "', delim = '|', header = true,"
                + " nullstr = 'NA', dateformat = '%d/%m/%Y', columns = " + COLUMNS + ") ORDER BY id");
        assertThat(duck.query("SELECT * FROM read_csv('" + out + "/*.csv', delim = ';', header = false, nullstr = 'NULL',"
                + " dateformat = '%Y/%m/%d', columns = " + COLUMNS + ") ORDER BY id")).isEqualTo(expected);
        assertThat(sluice("SELECT * FROM written ORDER BY id")).isEqualTo(expected);

        Path frameOut = data.resolve("frame_written");
        session.sql("SELECT id, name FROM src WHERE id < 100").write().option("quote", "'").option("escape", "\\")
                .csv(frameOut.toString());
        assertThat(duck.query("SELECT * FROM read_csv('" + frameOut + "/*.csv', header = true, quote = '''',"
                + " escape = '\\') ORDER BY id")).isEqualTo(sluice("SELECT id, name FROM src WHERE id < 100 ORDER BY id"));
    }

    @Test
    void theThreeModesTreatAShortRowAndABadValueAsSparkDoes() throws Exception {
        Path bad = data.resolve("bad.csv");
        Files.writeString(bad, "a,b\n1,2\n3\n4,x\n5,6\n");
        String table = "(a INT, b INT) STORED AS CSV";
        session.sql("CREATE EXTERNAL TABLE failfast " + table + " LOCATION '" + bad + "'");
        assertThatThrownBy(() -> session.sql("SELECT * FROM failfast").collect()).isInstanceOf(SluiceException.class)
                .hasMessageContaining(bad + ": line 3: malformed row, expected 2 fields but found 1");
        session.sql("CREATE EXTERNAL TABLE failfast_named " + table + " OPTIONS (mode 'FAILFAST') LOCATION '" + bad + "'");
        assertThatThrownBy(() -> session.sql("SELECT * FROM failfast_named").collect()).isInstanceOf(SluiceException.class)
                .hasMessageContaining(bad + ": line 3: malformed row, expected 2 fields but found 1");
        session.sql("CREATE EXTERNAL TABLE failfast_value " + table + " OPTIONS (mode 'permissive') LOCATION '" + bad + "'");
        session.sql("CREATE EXTERNAL TABLE dropped " + table + " OPTIONS (mode 'DROPMALFORMED') LOCATION '" + bad + "'");
        assertThat(sluice("SELECT * FROM failfast_value ORDER BY a")).isEqualTo(duck.query("SELECT TRY_CAST(a AS INT),"
                + " TRY_CAST(b AS INT) FROM read_csv('" + bad + "', header = true, all_varchar = true, null_padding = true)"
                + " ORDER BY 1"));
        assertThat(sluice("SELECT * FROM dropped ORDER BY a")).isEqualTo(duck.query("SELECT * FROM read_csv('" + bad
                + "', header = true, ignore_errors = true, columns = {'a': 'INTEGER', 'b': 'INTEGER'}) ORDER BY a"))
                .hasSize(2);

        Path badValue = data.resolve("bad_value.csv");
        Files.writeString(badValue, "a,b\n1,2\n4,x\n");
        session.sql("CREATE EXTERNAL TABLE bad_value " + table + " LOCATION '" + badValue + "'");
        assertThatThrownBy(() -> session.sql("SELECT * FROM bad_value").collect()).isInstanceOf(SluiceException.class)
                .hasMessageContaining(badValue + ": line 3, column 'b': cannot parse 'x' as int32");
        assertStillServing();
    }

    @Test
    void badDeclarationsAreRefusedNamingWhatIsWrong() throws Exception {
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE m (a INT) STORED AS CSV LOCATION '"
                + data.resolve("nowhere.csv") + "'")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("file not found: ").hasMessageContaining("nowhere.csv");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE u STORED AS CSV OPTIONS (delimter '|') LOCATION '"
                + pipe + "'")).isInstanceOf(SluiceException.class).hasMessageContaining(
                "unknown CSV option 'delimter'; known CSV options: header, delimiter, sep, quote, escape, nullValue");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE t (a INTT, b STRING) STORED AS CSV LOCATION '"
                + pipe + "'")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("CREATE TABLE t, column 'a': unknown type 'INTT' at line 1, column 28");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE e STORED AS CSV OPTIONS (encoding 'latin1') LOCATION '"
                + pipe + "'")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("CSV option encoding 'latin1' is not supported: files are read and written as UTF-8");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE d STORED AS CSV OPTIONS (delimiter '||') LOCATION '"
                + pipe + "'")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("CSV option delimiter must be one character, not '||'");
        Path parquet = data.resolve("p.parquet");
        duck.execute("COPY (SELECT 1 AS a) TO '" + parquet + "' (FORMAT parquet)");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE p STORED AS PARQUET OPTIONS (mergeSchema 'true')"
                + " LOCATION '" + parquet + "'")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown Parquet option 'mergeschema'; Parquet takes no options");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE p (a STRING) STORED AS PARQUET LOCATION '" + parquet
                + "'")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("column 'a' is declared utf8 but the files at " + parquet + " hold int32");
        session.sql("CREATE EXTERNAL TABLE p (a INTEGER) STORED AS PARQUET LOCATION '" + parquet + "'");
        assertThat(sluice("SELECT a FROM p")).isEqualTo(List.of(List.of(1L)));
        assertThatThrownBy(() -> session.read().option("heder", "true").csv(pipe.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("unknown CSV option 'heder'");
        assertThatThrownBy(() -> session.read().schema("a INT,").csv(pipe.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("schema 'a INT,': expected a name");
        assertStillServing();
    }

    private static void assertStillServing() throws Exception {
        assertThat(sluice("SELECT count(*) FROM read_back")).isEqualTo(List.of(List.of(2000L)));
    }

}
