package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * INSERT OVERWRITE on an embedded cluster while another client reads the table in a loop: every
 * read sees one generation of the table whole (all its rows, one {@code gen} value), never an
 * empty or partial table, because the commit switches readers with one manifest write.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OverwriteAtomicityTest {
    private static final int ROWS_PER_FILE = 500;
    private static final int FILES = 4;
    private static final int MAX_GENERATIONS = 200;
    private static final int READS = 40;

    @TempDir
    static Path dir;

    private Session session;

    @BeforeAll
    void start() throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        for (int f = 0; f < FILES; f++) {
            StringBuilder csv = new StringBuilder("id\n");
            for (int i = 0; i < ROWS_PER_FILE; i++) {
                csv.append(f * ROWS_PER_FILE + i).append('\n');
            }
            Files.writeString(src.resolve("part-" + f + ".csv"), csv);
        }
        session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(4));
        session.sql("CREATE EXTERNAL TABLE src STORED AS CSV LOCATION '" + src + "'").collect();
        session.sql("CREATE TABLE t STORED AS PARQUET LOCATION '" + dir.resolve("t") + "' AS SELECT id, 0 AS gen FROM src")
                .collect();
    }

    @AfterAll
    void stop() {
        session.close();
    }

    @Test
    void readersDuringOverwritesSeeOneWholeGeneration() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean reading = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger generations = new java.util.concurrent.atomic.AtomicInteger();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            for (int g = 1; g <= MAX_GENERATIONS && (reading.get() || g <= 2); g++) {
                session.sql("INSERT OVERWRITE t SELECT id, " + g + " AS gen FROM src").collect();
                generations.set(g);
            }
        });
        List<String> seen = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        for (int read = 0; read < READS && !writer.isDone() && System.nanoTime() < deadline; read++) {
            try {
                List<List<Object>> row = DuckDbOracle.normalize(
                        session.sql("SELECT count(*), count(DISTINCT gen), min(gen) FROM t").collect());
                assertThat(row.get(0).subList(0, 2)).as("rows and generations seen by read %d", read)
                        .isEqualTo(List.of((long) FILES * ROWS_PER_FILE, 1L));
                seen.add(String.valueOf(row.get(0).get(2)));
            } catch (io.sluice.common.SluiceException e) {
                failures.add(e.getMessage());
            }
        }
        reading.set(false);
        writer.get(3, TimeUnit.MINUTES);
        assertThat(seen).as("reads that completed (failed: %s)", failures).hasSizeGreaterThan(READS / 2);
        assertThat(new java.util.TreeSet<>(seen)).as("generations seen").hasSizeGreaterThan(1);
        assertThat(failures).as("reads that failed").allSatisfy(m -> assertThat(m).contains(dir.resolve("t").toString()));
        assertThat(DuckDbOracle.normalize(session.sql("SELECT count(*), min(gen), max(gen) FROM t").collect()))
                .isEqualTo(List.of(List.of((long) FILES * ROWS_PER_FILE, (long) generations.get(), (long) generations.get())));
        System.out.printf("overwrite atomicity: %d reads, generations seen %s, %d failed reads%n", seen.size(),
                new java.util.TreeSet<>(seen), failures.size());
    }
}
