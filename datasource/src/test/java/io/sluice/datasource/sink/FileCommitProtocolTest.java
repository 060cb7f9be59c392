package io.sluice.datasource.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
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

/** The commit protocol on the local file system: what becomes visible, what is removed, what is refused. */
class FileCommitProtocolTest {
    @TempDir
    Path dir;

    @Test
    void commitMovesOnlyTheReportedAttemptOfEachPartition() throws IOException {
        Path target = dir.resolve("out");
        WriteTarget write = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.ERROR_IF_EXISTS, "w1");
        assertThat(FileCommitProtocol.setup(write)).isFalse();
        Path first = attemptFile(write, "job1", "job1-s0-p0-a0", 0); // failed later: never reported
        Path retry = attemptFile(write, "job1", "job1-s0-p0-a1", 0);
        Path other = attemptFile(write, "job1", "job1-s0-p1-a0", 1);

        FileCommitProtocol.commit(write, "job1", List.of(retry.getParent().toString(), other.getParent().toString()));

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
        assertThat(FileCommitProtocol.setup(append)).isTrue();
        FileCommitProtocol.commit(append, "job2", List.of(attemptFile(append, "job2", "t-a0", 0).getParent().toString()));
        assertThat(listing(target)).containsExactly("_SUCCESS", "old.csv", append.fileName(0));

        WriteTarget overwrite = new WriteTarget(target.toString(), FileFormat.CSV, SaveMode.OVERWRITE, "w3");
        FileCommitProtocol.commit(overwrite, "job3", List.of(attemptFile(overwrite, "job3", "t-a0", 0).getParent().toString()));
        assertThat(listing(target)).containsExactly("_SUCCESS", overwrite.fileName(0));
    }

    @Test
    void abortRemovesTheJobsFilesAndATargetItCreated() throws IOException {
        Path target = dir.resolve("out");
        WriteTarget write = new WriteTarget(target.toString(), FileFormat.PARQUET, SaveMode.ERROR_IF_EXISTS, "w4");
        attemptFile(write, "job4", "t-a0", 0);
        FileCommitProtocol.abort(write, "job4", false);
        assertThat(Files.exists(target)).isFalse();

        Files.createDirectories(target);
        Files.writeString(target.resolve("kept.parquet"), "kept");
        WriteTarget append = new WriteTarget(target.toString(), FileFormat.PARQUET, SaveMode.APPEND, "w5");
        attemptFile(append, "job5", "t-a0", 0);
        attemptFile(append, "job6", "t-a0", 0); // another job writing there at the same time keeps its files
        FileCommitProtocol.abort(append, "job5", true);
        assertThat(listing(target)).containsExactly("_temporary", "kept.parquet");
        assertThat(listing(target.resolve("_temporary"))).containsExactly("job6");
    }

    @Test
    void refusesAnExistingTargetByDefaultAndAFileAlways() throws IOException {
        Path target = Files.createDirectories(dir.resolve("out"));
        assertThatThrownBy(() -> FileCommitProtocol.setup(WriteTarget.of(target.toString(), FileFormat.CSV,
                SaveMode.ERROR_IF_EXISTS))).isInstanceOf(SluiceException.class).hasMessageContaining("already exists");
        Path file = Files.writeString(dir.resolve("f.csv"), "a\n1\n");
        assertThatThrownBy(() -> FileCommitProtocol.setup(WriteTarget.of(file.toString(), FileFormat.CSV,
                SaveMode.APPEND))).isInstanceOf(SluiceException.class).hasMessageContaining("it is a file");
    }

    /** A file as task attempt {@code attempt} of {@code job} writes it, holding its own path. */
    private static Path attemptFile(WriteTarget target, String job, String attempt, int partition) throws IOException {
        Path attemptDir = Path.of(FileCommitProtocol.attemptDir(target.location(), job, attempt).toUri().getPath());
        Path file = Files.createDirectories(attemptDir).resolve(target.fileName(partition));
        return Files.writeString(file, file.toString());
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        }
    }
}
