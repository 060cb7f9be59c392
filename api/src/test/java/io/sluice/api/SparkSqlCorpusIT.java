package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

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
