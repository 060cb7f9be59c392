package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.testfixtures.DuckDbOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded cluster whose file access policy allows one root: locations that climb out of it
 * with {@code ..} behind {@code ?}, {@code #}, {@code file:} or a comma, percent-encoded dots, a
 * symbolic link inside a table directory, and a table directory swapped for a link after {@code
 * CREATE} never read, write or delete outside the root, for reads, CTAS, INSERT INTO and INSERT
 * OVERWRITE; each refusal names the location and the root, and the cluster keeps serving.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilePolicyBypassTest {
    @TempDir
    static Path dir;

    private Path root;
    private Path outside;
    private Session session;

    @BeforeAll
    void start() throws IOException {
        root = Files.createDirectories(dir.resolve("root"));
        outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.csv"), "k,v\nsecret,42\n");
        Files.writeString(Files.createDirectories(root.resolve("good")).resolve("part-0.csv"), "k,v\na,1\nb,2\n");
        session = Session.local(LocalCluster.Options.of(2).withAllowedRoots(List.of(root.toString())));
        session.sql("CREATE EXTERNAL TABLE good STORED AS CSV LOCATION '" + root.resolve("good") + "'").collect();
    }

    @AfterAll
    void stop() {
        session.close();
    }

    @Test
    void locationsThatClimbOutOfTheRootAreRefusedForReadsAndWrites() throws IOException {
        // each location, and the path of it the refusal names
        List<List<String>> climbing = List.of(
                List.of(root + "/good/../../outside", root + "/good/../../outside"),
                List.of(root + "/x#/../../outside", root + "/x#/../../outside"),
                List.of("file://" + root + "/../outside", "file://" + root + "/../outside"),
                List.of("file:" + root + "/good/../../outside", "file:" + root + "/good/../../outside"),
                List.of(root + "/good," + root + "/../outside", root + "/../outside"));
        int n = 0;
        for (List<String> climb : climbing) {
            String table = "climb" + n++;
            String location = climb.get(0);
            assertRefused(() -> session.sql("CREATE EXTERNAL TABLE " + table + " STORED AS CSV LOCATION '" + location
                    + "'").collect(), climb.get(1), "outside the allowed roots");
            assertRefused(() -> session.sql("CREATE TABLE " + table + " STORED AS CSV LOCATION '" + location
                    + "/written' AS SELECT * FROM good").collect(), climb.get(1), "outside the allowed roots");
            assertRefused(() -> session.sql("SELECT * FROM good").write().mode("overwrite").csv(location), climb.get(1),
                    "outside the allowed roots");
        }
        assertRefused(() -> session.sql("CREATE EXTERNAL TABLE q STORED AS CSV LOCATION '" + root + "/x?/../../outside'")
                .collect(), root + "/x?/../../outside", "glob with '..'");
        assertOutsideUntouched();
        assertServing();
    }

    @Test
    void percentEncodedDotsAreNamesNotParentDirectories() throws IOException {
        String encoded = root + "/enc/%2e%2e/%2e%2e/outside";
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE enc STORED AS CSV LOCATION '" + encoded + "'")
                .collect()).isInstanceOf(SluiceException.class).hasMessageContaining("%2e%2e/%2e%2e/outside")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
        session.sql("CREATE TABLE enc_out STORED AS CSV LOCATION '" + encoded + "' AS SELECT * FROM good").collect();
        assertThat(root.resolve("enc/%2e%2e/%2e%2e/outside")).isDirectory();
        assertThat(rows("SELECT count(*) FROM enc_out")).isEqualTo("[[2]]");
        assertOutsideUntouched();
    }

    @Test
    void aLinkInsideATableDirectoryIsRefusedAtCreateAndAtScan() throws IOException {
        Path linked = Files.createDirectories(root.resolve("linked"));
        Files.writeString(linked.resolve("part-0.csv"), "k,v\na,1\n");
        Files.createSymbolicLink(linked.resolve("part-1.csv"), outside.resolve("secret.csv"));
        assertRefused(() -> session.sql("CREATE EXTERNAL TABLE linked STORED AS CSV LOCATION '" + linked + "'").collect(),
                linked.resolve("part-1.csv").toString(), "resolves to " + outside.resolve("secret.csv").toRealPath());

        Path later = Files.createDirectories(root.resolve("later"));
        Files.writeString(later.resolve("part-0.csv"), "k,v\na,1\n");
        session.sql("CREATE EXTERNAL TABLE later STORED AS CSV LOCATION '" + later + "'").collect();
        assertThat(rows("SELECT count(*) FROM later")).isEqualTo("[[1]]");
        Files.createSymbolicLink(later.resolve("sub"), outside);
        assertRefused(() -> session.sql("SELECT * FROM later").collect(), later.resolve("sub/secret.csv").toString(),
                "outside the allowed roots");
        assertRefused(() -> session.sql("INSERT OVERWRITE later SELECT * FROM good").collect(), later.resolve("sub").toString(),
                "outside the table directory");
        assertOutsideUntouched();
        assertServing();
    }

    @Test
    void aTableDirectorySwappedForALinkAfterCreateIsRefused() throws IOException {
        Path swapped = Files.createDirectories(root.resolve("swapped"));
        Files.writeString(swapped.resolve("part-0.csv"), "k,v\na,1\n");
        session.sql("CREATE EXTERNAL TABLE swapped STORED AS CSV LOCATION '" + swapped + "'").collect();
        Files.move(swapped, root.resolve("swapped-away"));
        Files.createSymbolicLink(swapped, outside);
        for (String statement : List.of("SELECT * FROM swapped", "INSERT INTO swapped SELECT * FROM good",
                "INSERT OVERWRITE swapped SELECT * FROM good")) {
            assertRefused(() -> session.sql(statement).collect(), swapped.toString(), "outside the allowed roots");
        }
        Path parentLink = Files.createSymbolicLink(root.resolve("escape"), outside);
        assertRefused(() -> session.sql("CREATE TABLE escaped STORED AS CSV LOCATION '" + parentLink.resolve("new")
                + "' AS SELECT * FROM good").collect(), parentLink.resolve("new").toString(), "outside the allowed roots");
        assertOutsideUntouched();
        assertServing();
    }

    /** Spark Connect's readers run on the coordinator: a path outside the roots is refused before it is listed. */
    @Test
    void aReaderOnTheCoordinatorRefusesALocationOutsideTheRootsBeforeListingIt() {
        Session onCoordinator = FrontEnds.session(session.localCluster().coordinator().queries(), new InMemoryCatalog());
        String secret = outside.resolve("secret.csv").toString();
        assertRefused(() -> onCoordinator.read().csv(secret), secret, "outside the allowed roots");
        assertRefused(() -> onCoordinator.read().csv(root + "/good/../../outside"), root + "/good/../../outside",
                "outside the allowed roots");
        assertThat(onCoordinator.read().csv(root.resolve("good").toString()).count()).isEqualTo(2);
        assertServing();
    }

    private void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String names, String rule) {
        assertThatThrownBy(call).as(names).isInstanceOf(SluiceException.class).hasMessageContaining(names)
                .hasMessageContaining(rule).satisfies(e -> {
                    assertThat(e.getMessage()).doesNotContain("secret,42");
                    if (rule.contains("allowed roots")) {
                        assertThat(e.getMessage()).as("names the root").contains(root.toString());
                    }
                });
    }

    private void assertOutsideUntouched() throws IOException {
        try (Stream<Path> files = Files.list(outside)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("secret.csv");
        }
        assertThat(Files.readString(outside.resolve("secret.csv"))).isEqualTo("k,v\nsecret,42\n");
    }

    private void assertServing() {
        assertThat(rows("SELECT count(*), sum(v) FROM good")).isEqualTo("[[2, 3]]");
    }

    private String rows(String query) {
        return DuckDbOracle.normalize(session.sql(query).collect()).toString();
    }
}
