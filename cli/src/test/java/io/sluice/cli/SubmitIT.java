package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/sluice submit} runs a job jar (the examples jar, built before this module) on an
 * embedded cluster: the job's report reaches stdout; a missing class is one error line.
 */
class SubmitIT {
    @TempDir
    Path dir;

    static Path examplesJar() throws Exception {
        try (Stream<Path> files = Files.list(SluiceProcess.repoRoot().resolve("examples/target"))) {
            return files.filter(p -> p.getFileName().toString().matches("sluice-examples-.*\\.jar")
                    && !p.getFileName().toString().endsWith("-tests.jar")).findFirst().orElseThrow();
        }
    }

    @Test
    void runsAJobJarOnAnEmbeddedCluster() throws Exception {
        SluiceProcess.Result r = SluiceProcess.run(dir, Duration.ofSeconds(180), "submit", "--local", "2",
                examplesJar().toString(), dir.resolve("data").toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("Revenue by region", "| north", "| south", "Top products in the north");
        assertThat(r.stdout()).doesNotContain("WARN");
    }

    @Test
    void aMissingClassIsOneErrorLine() throws Exception {
        SluiceProcess.Result r = SluiceProcess.run(dir, Duration.ofSeconds(60), "submit", "--local", "1", "--class",
                "no.such.Job", examplesJar().toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("error: class no.such.Job not found in the job jar");
        assertThat(r.stdout()).isEmpty();
    }
}
