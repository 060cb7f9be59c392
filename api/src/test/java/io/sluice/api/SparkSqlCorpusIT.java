package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.kernels.QueryResult;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the Spark SQL corpus, the sqllogictest files under test resources {@code spark-sql/}, on one
 * embedded cluster started once, and reports every failing record as {@code file.slt:LINE: what}
 * (all of them, not only the first). The expected answers are Apache Spark 4.2's own, written by
 * {@code scripts/spark-slt-expected.sh} (bench/spark-peer's {@code SparkSltGenerator}); a case is
 * added by editing a file and running that script. {@code -Dsluice.slt=NAME} runs only the files
 * whose name contains NAME.
 *
 * <p>Format (see {@code spark-sql/README.md}):
 * <pre>
 * statement ok                 the statement (one or more lines) must succeed
 * statement error [text]       it must fail; with text, the error message must contain it
 * query &lt;types&gt; [rowsort|nosort]  one letter per column: I integral, R floating or decimal, T string,
 *                              D date, P timestamp, B boolean, A array, M map, S struct; then the
 *                              query, a line "----" and the expected rows, values separated by tabs
 * </pre>
 * The column types are checked too (so {@code 7 / 2} must be fractional, {@code 7 DIV 2} integral).
 * Values are in {@link SltFile#text canonical text}. Without {@code rowsort} the rows must come in
 * the expected order. Each file runs in its own session; a {@code SET} holds for the rest of its
 * file, as in a Spark session (the runner replays the file's earlier {@code SET}s before each
 * statement, since a Sluice script's {@code SET} holds for that script).
 */
class SparkSqlCorpusIT {
    private static final String DIRECTORY = "spark-sql";
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+\\S+\\s*=.*");

    private static Session cluster;

    @BeforeAll
    static void startCluster() {
        cluster = Session.local(LocalCluster.Options.of(2).withShufflePartitions(3).withHttpPort(0));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        ClusterTesting.closeAll(cluster);
    }

    @Test
    void corpus() throws Exception {
        List<Path> files = files();
        List<String> failures = new ArrayList<>();
        int records = 0;
        for (Path file : files) {
            SltFile slt = SltFile.read(file);
            records += slt.records().size();
            failures.addAll(runFile(slt));
        }
        ClusterTesting.assertNoLeakedBuffers(cluster);
        assertThat(failures).as(failures.size() + " of " + records + " records in " + files.size()
                + " files failed:\n" + String.join("\n", failures) + "\n").isEmpty();
    }

    /**
     * What the corpus cannot show, since its answers are Spark's: the plans Sluice makes of Spark's
     * clauses and hints (EXPLAIN), and that bad dialect input is an error naming what is wrong, after
     * which the cluster keeps serving.
     */
    @Test
    void explainShowsTheDialectsPlansAndBadInputIsNamed() throws Exception {
        Session session = Session.connect("127.0.0.1", cluster.localCluster().coordinator().httpPort(),
                cluster.localCluster().authSecret());
        try {
            session.sql("CREATE OR REPLACE TEMPORARY VIEW f AS SELECT * FROM (VALUES (1, 10), (2, 20), (NULL, 30)) AS v(k, x);"
                    + "CREATE OR REPLACE TEMPORARY VIEW d AS SELECT * FROM (VALUES (1, 'one'), (2, 'two')) AS v(k, name)");
            assertThat(explain(session, "SELECT k, x FROM f DISTRIBUTE BY k SORT BY x DESC"))
                    .contains("RepartitionExec: hash([k], 3)", "SortExec: [x DESC NULLS LAST], preserve_partitioning");
            assertThat(explain(session, "SET spark.sql.shuffle.partitions=5; EXPLAIN SELECT k FROM f CLUSTER BY k"))
                    .contains("RepartitionExec: hash([k], 5)", "SortExec: [k ASC NULLS FIRST], preserve_partitioning");
            assertThat(explain(session, "SELECT /*+ REPARTITION(4, x) */ k, x FROM f")).contains("RepartitionExec: hash([x], 4)");
            assertThat(explain(session, "SELECT /*+ COALESCE(2) */ k FROM f")).contains("RepartitionExec: round_robin(2)");
            assertThat(explain(session, "SET spark.sql.autoBroadcastJoinThreshold=-1; EXPLAIN SELECT /*+ BROADCAST(d) */ "
                    + "f.x, d.name FROM f JOIN d ON f.k = d.k")).contains("HashJoinExec: mode=collect_right");
            assertThat(explain(session, "SET spark.sql.autoBroadcastJoinThreshold=-1; EXPLAIN SELECT f.x, d.name FROM f "
                    + "JOIN d ON f.k = d.k")).doesNotContain("mode=collect_");

            assertThatThrownBy(() -> session.sql("SELECT /*+ REPARTITION(3, nope) */ k FROM f").collect())
                    .hasMessageContaining("hint REPARTITION: unknown column 'nope'");
            assertThatThrownBy(() -> session.sql("SELECT /*+ SHUFFLE_HASH(f) */ k FROM f").collect())
                    .hasMessageContaining("hint SHUFFLE_HASH");
            assertThatThrownBy(() -> session.sql("SELECT k FROM f TABLESAMPLE (BUCKET 5 OUT OF 4)").collect())
                    .hasMessageContaining("TABLESAMPLE: the sampling fraction must be 0 to 1 (0 to 100 PERCENT), not 1.25");
            assertThatThrownBy(() -> session.sql("SELECT * FROM (SELECT k FROM f ORDER BY k SORT BY k) s").collect())
                    .hasMessageContaining("Combination of ORDER BY/SORT BY/DISTRIBUTE BY/CLUSTER BY is not supported");
            assertThat(session.sql("SELECT 'a\\';b' AS s; SELECT count(*) FROM (SELECT k FROM f SORT BY k LIMIT 2)")
                    .collect().rows()).as("a ';' after \\' does not split").containsExactly(List.of(2L));
            assertThatThrownBy(() -> session.sql("SELECT k FROM f CLUSTER BY k SORT BY k").collect())
                    .hasMessageContaining("CLUSTER BY cannot go with DISTRIBUTE BY or SORT BY");
            assertThatThrownBy(() -> session.sql("SELECT k FROM f WHERE CAST(k AS STRING) RLIKE '(' ").collect())
                    .hasMessageContaining("invalid regular expression '('");
            assertThatThrownBy(() -> session.sql("SET spark.sql.shuffle.partitions=zero").collect())
                    .hasMessageContaining("invalid value 'zero' for spark.sql.shuffle.partitions");
            assertThatThrownBy(() -> session.sql("SET spark.sql.session.timeZone=Mars/Base").collect())
                    .hasMessageContaining("invalid value 'Mars/Base' for spark.sql.session.timeZone");
            assertThatThrownBy(() -> session.sql("SET sluice.sql.dialect=postgres").collect())
                    .hasMessageContaining("sluice.sql.dialect");
            assertThat(session.sql("SELECT count(*) FROM f JOIN d ON f.k <=> d.k").collect().rows())
                    .containsExactly(List.of(2L));
        } finally {
            ClusterTesting.closeAll(session);
        }
    }

    private static String explain(Session session, String sql) {
        String script = sql.contains("EXPLAIN") ? sql : "EXPLAIN " + sql;
        StringBuilder out = new StringBuilder();
        session.sql(script).collect().rows().forEach(r -> out.append(r.get(0)).append('\n'));
        return out.toString();
    }

    private static List<Path> files() throws IOException, URISyntaxException {
        Path dir = Path.of(SparkSqlCorpusIT.class.getClassLoader().getResource(DIRECTORY).toURI());
        String only = System.getProperty("sluice.slt", "");
        try (Stream<Path> list = Files.list(dir)) {
            List<Path> files = list.filter(p -> p.toString().endsWith(".slt")
                    && p.getFileName().toString().contains(only)).sorted().toList();
            assertThat(files).as("sqllogictest files in " + dir).isNotEmpty();
            return files;
        }
    }

    /** Runs one file's records in a session of its own; returns its failures, each with file:line. */
    private static List<String> runFile(SltFile file) throws Exception {
        List<String> failures = new ArrayList<>();
        StringBuilder sets = new StringBuilder();
        Session session = Session.connect("127.0.0.1", cluster.localCluster().coordinator().httpPort(),
                cluster.localCluster().authSecret());
        try {
            for (SltFile.Record r : file.records()) {
                String where = file.path().getFileName() + ":" + r.line();
                String sql = stripSemicolon(r.sql());
                try {
                    String failure = run(session, sets + sql, r);
                    if (failure != null) {
                        failures.add(where + ": " + failure + "\n    " + r.sql().replaceAll("\\s+", " "));
                    }
                } catch (RuntimeException | AssertionError e) {
                    failures.add(where + ": " + firstLine(e.getMessage()) + "\n    " + r.sql().replaceAll("\\s+", " "));
                }
                if (SET.matcher(sql).matches()) {
                    sets.append(sql).append(";\n");
                }
            }
        } finally {
            ClusterTesting.closeAll(session);
        }
        return failures;
    }

    /** Runs a record; returns null when it passes, else what differs. */
    private static String run(Session session, String sql, SltFile.Record r) {
        String[] header = r.header().split("\\s+", 3);
        if (header[0].equals("statement") && header[1].equals("ok")) {
            session.sql(sql).collect();
            return null;
        }
        if (header[0].equals("statement") && header[1].equals("error")) {
            String text = header.length > 2 ? header[2] : String.join("\n", r.expected());
            try {
                session.sql(sql).collect();
            } catch (RuntimeException e) {
                String message = String.valueOf(e.getMessage());
                return text.isBlank() || message.contains(text.strip()) ? null
                        : "the error '" + firstLine(message) + "' does not contain '" + text.strip() + "'";
            }
            return "succeeded, but the record expects an error";
        }
        if (!header[0].equals("query") || header.length < 2) {
            return "unknown record kind '" + r.header() + "'";
        }
        String types = header[1];
        String mode = header.length > 2 ? header[2].strip().toLowerCase(Locale.ROOT) : "nosort";
        QueryResult result = session.sql(sql).collect();
        StringBuilder actualTypes = new StringBuilder();
        result.schema().fields().forEach(f -> actualTypes.append(SltFile.letter(f.type())));
        List<String> actual = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            List<String> values = new ArrayList<>();
            row.forEach(v -> values.add(SltFile.text(v)));
            actual.add(String.join("\t", values));
        }
        List<String> expected = new ArrayList<>(r.expected());
        if (mode.equals("rowsort")) {
            actual.sort(Comparator.naturalOrder());
            expected.sort(Comparator.naturalOrder());
        }
        if (!actualTypes.toString().equals(types)) {
            return "column types " + actualTypes + ", expected " + types;
        }
        if (!actual.equals(expected)) {
            return "rows differ (" + mode + ")\n    expected: " + expected + "\n    actual:   " + actual;
        }
        return null;
    }

    private static String stripSemicolon(String sql) {
        String s = sql.strip();
        return s.endsWith(";") ? s.substring(0, s.length() - 1) : s;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
