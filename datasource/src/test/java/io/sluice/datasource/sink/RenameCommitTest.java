package io.sluice.datasource.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.FileFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The renaming commit on the local file system: what becomes visible, what is removed, what is refused. */
class RenameCommitTest {
    @TempDir
    Path dir;

    @Test
    void commitMovesOnlyTheReportedAttemptOfEachPartition() throws IOException {
        Path target = dir.resolve("out");
        WriteTarget write = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.ERROR_IF_EXISTS, "w1");
        assertThat(CommitProtocol.of(write).setup()).isFalse();
        Path first = attemptFile(write, "job1", "job1-s0-p0-a0", 0); // failed later: never reported
        Path retry = attemptFile(write, "job1", "job1-s0-p0-a1", 0);
        Path other = attemptFile(write, "job1", "job1-s0-p1-a0", 1);

        CommitProtocol.of(write).commit("job1", List.of(retry.getParent().toString(), other.getParent().toString()));

        assertThat(listing(target)).containsExactly("_SUCCESS", write.fileName(0), write.fileName(1));
        assertThat(Files.readString(target.resolve(write.fileName(0)))).isEqualTo(retry.toString());
        assertThat(Files.exists(first)).isFalse();
    }

    @Test
    void overwriteReplacesAndAppendAdds() throws IOException {
        Path target = dir.resolve("out");
        Files.createDirectories(target);
        Files.writeString(target.resolve("old.csv"), "old");
        WriteTarget append = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.APPEND, "w2");
        assertThat(CommitProtocol.of(append).setup()).isTrue();
        CommitProtocol.of(append).commit("job2", List.of(attemptFile(append, "job2", "t-a0", 0).getParent().toString()));
        assertThat(listing(target)).containsExactly("_SUCCESS", "old.csv", append.fileName(0));

        WriteTarget overwrite = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.OVERWRITE, "w3");
        CommitProtocol.of(overwrite).commit("job3", List.of(attemptFile(overwrite, "job3", "t-a0", 0).getParent().toString()));
        assertThat(listing(target)).containsExactly("_SUCCESS", overwrite.fileName(0));
    }

    @Test
    void abortRemovesTheJobsFilesAndATargetItCreated() throws IOException {
        Path target = dir.resolve("out");
        WriteTarget write = new WriteTarget(target.toString(), FileFormat.PARQUET, SaveMode.ERROR_IF_EXISTS, "w4");
        attemptFile(write, "job4", "t-a0", 0);
        CommitProtocol.of(write).abort("job4", false);
        assertThat(Files.exists(target)).isFalse();

        Files.createDirectories(target);
        Files.writeString(target.resolve("kept.parquet"), "kept");
        WriteTarget append = new WriteTarget(target.toString(), FileFormat.PARQUET, SaveMode.APPEND, "w5");
        attemptFile(append, "job5", "t-a0", 0);
        attemptFile(append, "job6", "t-a0", 0); // another job writing there at the same time keeps its files
        CommitProtocol.of(append).abort("job5", true);
        assertThat(listing(target)).containsExactly("_temporary", "kept.parquet");
        assertThat(listing(target.resolve("_temporary"))).containsExactly("job6");
    }

    @Test
    void refusesAnExistingTargetByDefaultAndAFileAlways() throws IOException {
        Path target = Files.createDirectories(dir.resolve("out"));
        assertThatThrownBy(() -> CommitProtocol.of(WriteTarget.of(target.toString(), FileFormat.CSV,
                SaveMode.ERROR_IF_EXISTS)).setup()).isInstanceOf(SluiceException.class).hasMessageContaining("already exists");
        Path file = Files.writeString(dir.resolve("f.csv"), "a\n1\n");
        assertThatThrownBy(() -> CommitProtocol.of(WriteTarget.of(file.toString(), FileFormat.CSV,
                SaveMode.APPEND)).setup()).isInstanceOf(SluiceException.class).hasMessageContaining("it is a file");
    }

    @Test
    void anOverwriteStoppedBeforeItsManifestShowsTheOldDataAndAfterItTheNew() throws IOException {
        Path target = Files.createDirectories(dir.resolve("out"));
        Files.writeString(target.resolve("old.csv"), "old");
        WriteTarget first = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.OVERWRITE, "w7");
        Path moved = attemptFile(first, "job7", "t-a0", 0);
        assertThatThrownBy(() -> CommitProtocol.of(first).commit("job7", List.of(moved.getParent().toString()),
                crashAt(CommitProtocol.Step.NEW_FILES_IN_PLACE))).hasMessageContaining("crash");
        assertThat(visible(target)).as("crashed before the manifest").containsExactly("old.csv");
        assertThat(listing(target)).contains("old.csv", first.fileName(0));

        WriteTarget second = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.OVERWRITE, "w8");
        Path published = attemptFile(second, "job8", "t-a0", 0);
        assertThatThrownBy(() -> CommitProtocol.of(second).commit("job8", List.of(published.getParent().toString()),
                crashAt(CommitProtocol.Step.PUBLISHED))).hasMessageContaining("crash");
        assertThat(visible(target)).as("crashed after the manifest").containsExactly(second.fileName(0));
        assertThat(listing(target)).contains("old.csv", second.fileName(0));

        WriteTarget third = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.OVERWRITE, "w9");
        CommitProtocol.of(third).commit("job9", List.of(attemptFile(third, "job9", "t-a0", 0).getParent().toString()));
        assertThat(listing(target)).as("the next overwrite removes what no manifest lists (the crashed jobs' "
                + "attempt directories stay under _temporary, which readers skip)")
                .containsExactly("_SUCCESS", "_temporary", third.fileName(0));
        assertThat(visible(target)).containsExactly(third.fileName(0));
    }

    @Test
    void aDynamicPartitionOverwriteSwitchesTheWrittenPartitionsInOneManifest() throws IOException {
        Path target = dir.resolve("out");
        Files.createDirectories(target.resolve("region=a"));
        Files.createDirectories(target.resolve("region=b"));
        Files.writeString(target.resolve("region=a/old.csv"), "a");
        Files.writeString(target.resolve("region=b/old.csv"), "b");
        WriteTarget overwrite = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.OVERWRITE, "w10")
                .withPartitionBy(List.of("region"));
        Path attempt = Path.of(RenameCommit.attemptDir(target.toString(), "job10", "t-a0").toUri().getPath());
        Files.createDirectories(attempt.resolve("region=a"));
        Files.writeString(attempt.resolve("region=a/" + overwrite.fileName(0)), "new");

        CommitProtocol.of(overwrite).commit("job10", List.of(attempt.toString()));

        assertThat(visible(target)).containsExactly(overwrite.fileName(0), "old.csv"); // region=a, then region=b
        assertThat(listing(target.resolve("region=a"))).containsExactly(overwrite.fileName(0));
        assertThat(Files.readString(target.resolve("_SUCCESS"))).contains("region=a/" + overwrite.fileName(0),
                "region=b/old.csv");
    }

    private static CommitProtocol.CommitObserver crashAt(CommitProtocol.Step crash) {
        return step -> {
            if (step == crash) {
                throw new IOException("simulated crash at " + step);
            }
        };
    }

    /** The names of the files a reader sees at {@code dir}. */
    private static List<String> visible(Path dir) {
        return SourceFiles.list(dir.toString()).stream().map(org.apache.hadoop.fs.Path::getName).toList();
    }

    /** A file as task attempt {@code attempt} of {@code job} writes it, holding its own path. */
    private static Path attemptFile(WriteTarget target, String job, String attempt, int partition) throws IOException {
        Path attemptDir = Path.of(RenameCommit.attemptDir(target.location(), job, attempt).toUri().getPath());
        Path file = Files.createDirectories(attemptDir).resolve(target.fileName(partition));
        return Files.writeString(file, file.toString());
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        }
    }
}
