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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the sqllogictest files under test resources {@code slt/} on an embedded cluster, one cluster
 * per file, one JUnit test per record, in file order. A case is added by editing a file, no Java.
 *
 * <p>Records, separated by blank lines; {@code #} starts a comment line:
 * <pre>
 * statement ok                 the statement (one or more lines) must succeed
 * statement error [text]       it must fail; with text, the error message must contain it
 * query &lt;types&gt; [rowsort]     one letter per column (I integer, R real or decimal, T text, D date,
 *                              B boolean); then the query, a line "----" and the expected rows
 * </pre>
 * A row is its values separated by tabs, or by runs of spaces when the line has no tab and the query
 * more than one column. Values print
 * as: NULL; {@code (empty)} for the empty string; whole numbers without a fraction (also decimals
 * and doubles that are whole); other numbers in plain notation without trailing zeros, doubles to 9
 * significant digits, NaN and Infinity as such; dates as yyyy-mm-dd; timestamps as
 * yyyy-mm-dd hh:mm:ss with a fraction only when not zero; booleans as true/false. Without {@code rowsort} the rows
 * must come in the expected order. {@code ${TEMP}} in SQL is a fresh directory per file (for
 * statements that write files), deleted when the file is done. {@code -Dsluice.slt=NAME} runs only the files whose name contains NAME.
 */
class SqlLogicTest {
    private static final String DIRECTORY = "slt";

    /**
     * One embedded cluster for every file (starting one takes seconds); each file gets its own
     * session over HTTP, hence its own catalog, so files cannot see each other's tables.
     */
    private static Session cluster;

    @BeforeAll
    static void startCluster() {
        cluster = Session.local(LocalCluster.Options.of(2).withShufflePartitions(3).withHttpPort(0));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        ClusterTesting.closeAll(cluster);
    }

    @TestFactory
    Stream<DynamicNode> files() throws IOException, URISyntaxException {
        Path dir = Path.of(SqlLogicTest.class.getClassLoader().getResource(DIRECTORY).toURI());
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            // -Dsluice.slt=name runs only the files whose name contains it
            String only = System.getProperty("sluice.slt", "");
            files = list.filter(p -> p.toString().endsWith(".slt") && p.getFileName().toString().contains(only))
                    .sorted().toList();
        }
        assertThat(files).as("sqllogictest files in " + dir).isNotEmpty();
        return files.stream().map(SqlLogicTest::file);
    }

    private static DynamicContainer file(Path file) {
        List<SltFile.Record> records = SltFile.read(file).records();
        List<DynamicNode> tests = new ArrayList<>();
        Session[] session = new Session[1];
        Path[] temp = new Path[1];
        tests.add(DynamicTest.dynamicTest("open a session", () -> {
            temp[0] = Files.createTempDirectory("sluice-slt-");
            session[0] = Session.connect("127.0.0.1", cluster.localCluster().coordinator().httpPort(),
                    cluster.localCluster().authSecret());
        }));
        for (SltFile.Record r : records) {
            tests.add(DynamicTest.dynamicTest(r.label(), () -> run(session[0],
                    r.withSql(r.sql().replace("${TEMP}", temp[0].toString())), file)));
        }
        tests.add(DynamicTest.dynamicTest("no leaked buffers; close the session", () -> {
            try {
                ClusterTesting.assertNoLeakedBuffers(cluster);
            } finally {
                ClusterTesting.closeAll(session[0]);
                deleteRecursively(temp[0]);
            }
        }));
        return DynamicContainer.dynamicContainer(file.getFileName().toString(), tests);
    }

    private static void run(Session session, SltFile.Record r, Path file) {
        String[] header = r.header().split("\\s+", 3);
        String where = file.getFileName() + ":" + r.line();
        if (header[0].equals("statement") && header[1].equals("ok")) {
            session.sql(r.sql()).collect();
        } else if (header[0].equals("statement") && header[1].equals("error")) {
            String text = header.length > 2 ? header[2] : String.join("\n", r.expected());
            var thrown = assertThatThrownBy(() -> session.sql(r.sql()).collect()).as(where);
            if (!text.isBlank()) {
                thrown.hasMessageContaining(text.strip());
            }
        } else if (header[0].equals("query")) {
            String types = header[1];
            boolean rowsort = header.length > 2 && header[2].strip().equals("rowsort");
            QueryResult result = session.sql(r.sql()).collect();
            assertThat(result.schema().size()).as(where + ": columns (types '" + types + "')").isEqualTo(types.length());
            List<String> actual = new ArrayList<>();
            for (List<Object> row : result.rows()) {
                List<String> values = new ArrayList<>();
                row.forEach(v -> values.add(SltFile.text(v)));
                actual.add(String.join("\t", values));
            }
            List<String> expected = new ArrayList<>();
            for (String line : r.expected()) {
                boolean oneValue = line.contains("\t") || types.length() == 1;
                expected.add(oneValue ? line : String.join("\t", line.strip().split(" +")));
            }
            if (rowsort) {
                actual.sort(Comparator.naturalOrder());
                expected.sort(Comparator.naturalOrder());
            }
            assertThat(actual).as(where).containsExactlyElementsOf(expected);
        } else {
            throw new IllegalArgumentException(where + ": unknown record kind '" + r.header() + "'");
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
