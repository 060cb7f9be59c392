package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/sluice sql} running a script of several statements from {@code -f} and from stdin:
 * every query's result in order, nothing for DDL and {@code SET} in csv, tsv and json, their status
 * on stderr in table format; the first failing statement stops the script naming its line; arrow
 * and parquet results written to a file and read back.
 */
class SqlScriptIT {
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    static Path dir;
    private static DuckDbOracle duck;
    private static Path people;
    private static String script;

    @BeforeAll
    static void writeData() throws Exception {
        duck = new DuckDbOracle();
        people = dir.resolve("people.parquet");
        duck.execute("COPY (SELECT id::BIGINT AS id, name, score::DOUBLE AS score FROM (VALUES (1, 'Ann', 2.5), "
                + "(2, 'Bo, Jr.', NULL), (3, NULL, 7.0), (4, 'Cy \"C\"', -1.0)) v(id, name, score)) TO '" + people
                + "' (FORMAT PARQUET)");
        script = createPeople()
                + "SET sluice.result.max-bytes = 10000000;\n"
                + "-- the first query; a ';' in a comment ends nothing\n"
                + "SELECT count(*) AS n FROM people;\n"
                + "CREATE VIEW top AS SELECT id, name, score FROM people WHERE score IS NOT NULL;\n"
                + "SELECT id, name, score FROM top ORDER BY id;\n";
    }

    @AfterAll
    static void closeDuckDb() throws Exception {
        if (duck != null) {
            duck.close();
        }
    }

    private static String createPeople() {
        return "CREATE EXTERNAL TABLE people STORED AS PARQUET LOCATION '" + people + "';\n";
    }

    private static SluiceProcess.Result run(String name, String text, String... options) throws Exception {
        Path file = Files.writeString(dir.resolve(name + ".sql"), text);
        List<String> args = new java.util.ArrayList<>(List.of("sql", "--local=1", "-f", file.toString()));
        args.addAll(List.of(options));
        return SluiceProcess.run(dir, RUN_TIMEOUT, args.toArray(new String[0]));
    }

    private static void assertOk(SluiceProcess.Result result) {
        assertThat(result.exitCode()).as("exit code; stderr:\n%s", result.stderr()).isZero();
    }

    @Test
    void csvPrintsEveryQueryResultAndNothingForTheOtherStatements() throws Exception {
        SluiceProcess.Result result = run("csv", script, "--format", "csv");
        assertOk(result);
        assertThat(result.stdout()).isEqualTo("""
                n
                4
                id,name,score
                1,Ann,2.5
                3,,7.0
                4,"Cy ""C\"\"",-1.0
                """);
    }

    @Test
    void stdinScriptPrintsTheSameAsTheFile() throws Exception {
        Path input = Files.writeString(dir.resolve("stdin.sql"), script);
        SluiceProcess.Result result = SluiceProcess.runWithInput(dir, RUN_TIMEOUT, input, "sql", "--local=1", "--format", "tsv");
        assertOk(result);
        assertThat(result.stdout()).isEqualTo("n\n4\nid\tname\tscore\n1\tAnn\t2.5\n3\t\t7.0\n4\t\"Cy \"\"C\"\"\"\t-1.0\n");
    }

    @Test
    void jsonLinesOneObjectPerRow() throws Exception {
        SluiceProcess.Result result = run("json", script, "--format", "json");
        assertOk(result);
        assertThat(result.stdout()).isEqualTo("""
                {"n":4}
                {"id":1,"name":"Ann","score":2.5}
                {"id":3,"score":7.0}
                {"id":4,"name":"Cy \\"C\\"","score":-1.0}
                """);
    }

    @Test
    void tablesOnStdoutStatusesOnStderr() throws Exception {
        SluiceProcess.Result result = run("table", script, "--format", "table");
        assertOk(result);
        assertThat(result.stdout()).isEqualTo("""
                +---+
                | n |
                +---+
                | 4 |
                +---+
                1 row
                +----+--------+-------+
                | id | name   | score |
                +----+--------+-------+
                | 1  | Ann    | 2.5   |
                | 3  | NULL   | 7.0   |
                | 4  | Cy "C" | -1.0  |
                +----+--------+-------+
                3 rows
                """);
        assertThat(result.stderrLines()).as("one status line per statement without rows").hasSize(3)
                .element(1).isEqualTo("sluice.result.max-bytes = 10000000");
    }

    @Test
    void aFailingStatementStopsTheScriptNamingItsLine() throws Exception {
        SluiceProcess.Result result = run("failing", createPeople() + "SELECT 1 AS a;\n\nSELECT nope\n  FROM people;\n"
                + "SELECT 3 AS c;\n", "--format", "csv");
        assertThat(result.exitCode()).as("stderr:\n%s", result.stderr()).isEqualTo(1);
        assertThat(result.stdout()).as("the statements before it printed, none after").isEqualTo("a\n1\n");
        assertThat(result.stderrLines().stream().filter(l -> l.startsWith("error:"))).singleElement().asString()
                .contains("statement at line 4").contains("nope");
    }

    @Test
    void parquetAndArrowFilesReadBack() throws Exception {
        String query = "SELECT id, name, score FROM people ORDER BY id";
        Path parquet = dir.resolve("result.parquet");
        SluiceProcess.Result written = run("parquet", createPeople() + query + ";\n", "--format", "parquet",
                "--output", parquet.toString());
        assertOk(written);
        assertThat(written.stderr()).contains("wrote 4 rows to " + parquet);
        assertThat(duck.query("SELECT * FROM read_parquet('" + parquet + "')"))
                .isEqualTo(duck.query("SELECT id, name, score FROM read_parquet('" + people + "') ORDER BY id"));

        Path arrow = dir.resolve("result.arrow");
        assertOk(run("arrow", createPeople() + query + ";\n", "--format", "arrow", "--output", arrow.toString()));
        try (BufferAllocator allocator = new RootAllocator();
                ArrowFileReader reader = new ArrowFileReader(Files.newByteChannel(arrow), allocator)) {
            StringBuilder rows = new StringBuilder();
            while (reader.loadNextBatch()) {
                rows.append(reader.getVectorSchemaRoot().contentToTSVString());
            }
            assertThat(rows.toString()).isEqualTo("id\tname\tscore\n1\tAnn\t2.5\n2\tBo, Jr.\tnull\n3\tnull\t7.0\n"
                    + "4\tCy \"C\"\t-1.0\n");
        }
    }

    /** A file format takes one result: two queries, or none, or no --output, are usage errors before anything starts. */
    @Test
    void fileFormatsTakeExactlyOneResult() throws Exception {
        Path out = dir.resolve("never.parquet");
        SluiceProcess.Result two = run("two", createPeople() + "SELECT 1;\nSELECT 2;\n", "--format", "parquet",
                "--output", out.toString());
        assertThat(two.exitCode()).isEqualTo(2);
        assertThat(two.stderr()).contains("--format parquet writes one result to --output, but the script has 2 "
                + "statements with rows (at lines 2, 3)");
        SluiceProcess.Result noFile = run("no-file", "SELECT 1;\n", "--format", "arrow");
        assertThat(noFile.exitCode()).isEqualTo(2);
        assertThat(noFile.stderr()).contains("--output goes with --format arrow or parquet");
        assertThat(out).doesNotExist();
    }
}
