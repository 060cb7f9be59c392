package io.sluice.datasource.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.DatasourceSettingsDeclaration;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.FileFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The object-store commit, run on the local file system by declaring {@code file} a direct-write
 * scheme: nothing is renamed, readers (through {@link SourceFiles}) see only what a commit listed,
 * and listing decides what is removed.
 */
class DirectCommitTest {
    private static final String SCHEMES = DatasourceSettingsDeclaration.DIRECT_WRITE_SCHEMES.name();

    @TempDir
    Path dir;

    @BeforeAll
    static void directOnLocalFiles() {
        System.setProperty(SCHEMES, "file");
    }

    @AfterAll
    static void restore() {
        System.clearProperty(SCHEMES);
    }

    @Test
    void aRunningWriteIsInvisibleAndTheCommitPublishesOnlyTheReportedAttempts() throws IOException {
        String target = "file://" + dir.resolve("out");
        WriteTarget write = new WriteTarget(target, FileFormat.CSV, SaveMode.ERROR_IF_EXISTS, "w1");
        assertThat(CommitProtocol.of(write).setup()).isFalse();
        Path lost = taskFile(write, 0, "job1", "job1-s0-p0-l1"); // an attempt whose result never arrived
        Path retry = taskFile(write, 0, "job1", "job1-s0-p0-l2");
        Path other = taskFile(write, 1, "job1", "job1-s0-p1-l3");
        assertThat(SourceFiles.list(target)).as("files of a running write").isEmpty();
        assertThat(retry.getParent()).isEqualTo(dir.resolve("out"));

        CommitProtocol.of(write).commit("job1", List.of(reported(write, retry), reported(write, other)));

        assertThat(names(SourceFiles.list(target))).containsExactly(retry.getFileName().toString(),
                other.getFileName().toString());
        assertThat(listing(dir.resolve("out"))).containsExactly("_SUCCESS", retry.getFileName().toString(),
                other.getFileName().toString());
        assertThat(Files.exists(lost)).isFalse();
    }

    @Test
    void appendKeepsWhatWasVisibleAndOverwriteReplacesIt() throws IOException {
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("old.csv"), "a\n1\n"); // written by another tool: no manifest
        String target = "file://" + out;
        WriteTarget append = new WriteTarget(target, FileFormat.CSV, SaveMode.APPEND, "w2");
        assertThat(CommitProtocol.of(append).setup()).isTrue();
        Path added = taskFile(append, 0, "job2", "job2-s0-p0-l1");
        assertThat(names(SourceFiles.list(target))).containsExactly("old.csv");
        CommitProtocol.of(append).commit("job2", List.of(reported(append, added)));
        assertThat(names(SourceFiles.list(target))).containsExactly("old.csv", added.getFileName().toString());

        WriteTarget overwrite = new WriteTarget(target, FileFormat.CSV, SaveMode.OVERWRITE, "w3");
        assertThat(CommitProtocol.of(overwrite).setup()).isTrue();
        Path replacement = taskFile(overwrite, 0, "job3", "job3-s0-p0-l1");
        assertThat(names(SourceFiles.list(target))).as("the old files until the commit")
                .containsExactly("old.csv", added.getFileName().toString());
        CommitProtocol.of(overwrite).commit("job3", List.of(reported(overwrite, replacement)));
        assertThat(listing(out)).containsExactly("_SUCCESS", replacement.getFileName().toString());
    }

    @Test
    void abortRemovesTheFailedJobsFilesFoundByListing() throws IOException {
        String created = "file://" + dir.resolve("new");
        WriteTarget write = new WriteTarget(created, FileFormat.PARQUET, SaveMode.ERROR_IF_EXISTS, "w4");
        CommitProtocol.of(write).setup();
        taskFile(write, 0, "job4", "job4-s0-p0-l1");
        taskFile(write, 1, "job4", "job4-s0-p1-l2");
        CommitProtocol.of(write).abort("job4", false);
        assertThat(Files.exists(dir.resolve("new"))).isFalse();

        Path kept = Files.createDirectories(dir.resolve("kept"));
        Files.writeString(kept.resolve("kept.parquet"), "x");
        WriteTarget append = new WriteTarget("file://" + kept, FileFormat.PARQUET, SaveMode.APPEND, "w5");
        CommitProtocol.of(append).setup();
        taskFile(append, 0, "job5", "job5-s0-p0-l1");
        Path retried = taskFile(append, 0, "job6", "job6-s0-p0-l1"); // the write's next job attempt
        CommitProtocol.of(append).abort("job5", true);
        assertThat(listing(kept)).containsExactly("_SUCCESS", "kept.parquet", retried.getFileName().toString());
        assertThat(names(SourceFiles.list("file://" + kept))).containsExactly("kept.parquet");
    }

    private static Path taskFile(WriteTarget target, int partition, String job, String task) throws IOException {
        Path file = Path.of(CommitProtocol.of(target).taskFile(partition, job, task).toUri().getPath());
        return Files.writeString(file, "a\n" + partition + "\n");
    }

    private static String reported(WriteTarget target, Path file) {
        return CommitProtocol.of(target).reported(new org.apache.hadoop.fs.Path(file.toUri()));
    }

    private static List<String> names(List<org.apache.hadoop.fs.Path> files) {
        return files.stream().map(org.apache.hadoop.fs.Path::getName).toList();
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        }
    }
}
