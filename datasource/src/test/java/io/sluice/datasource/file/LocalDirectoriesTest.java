package io.sluice.datasource.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NIO listing of a local directory answers what Hadoop's own local listing answers. */
class LocalDirectoriesTest {
    @TempDir
    Path dir;

    @Test
    void listsAsHadoopsLocalFileSystemDoes() throws Exception {
        Files.writeString(dir.resolve("part-0.parquet"), "12345");
        Files.writeString(dir.resolve("with space %41.csv"), "abc");
        Files.createDirectories(dir.resolve("g=1/h=2"));
        Files.createSymbolicLink(dir.resolve("linked.csv"), dir.resolve("part-0.parquet"));
        Files.createSymbolicLink(dir.resolve("dangling.csv"), dir.resolve("gone.csv"));
        try (RawLocalFileSystem fs = new RawLocalFileSystem()) {
            fs.initialize(java.net.URI.create("file:///"), new Configuration(false));
            org.apache.hadoop.fs.Path path = fs.makeQualified(new org.apache.hadoop.fs.Path(dir.toString()));
            List<String> ours = describe(LocalDirectories.list(path, fs.getDefaultBlockSize(path)));
            assertThat(ours).isEqualTo(describe(fs.listStatus(path)));
            assertThat(ours).hasSize(4).anyMatch(s -> s.contains("/with space %41.csv file 3 "));
            assertThatThrownBy(() -> LocalDirectories.list(new org.apache.hadoop.fs.Path(path, "missing"), 1))
                    .isInstanceOf(FileNotFoundException.class).hasMessageContaining("missing");
        }
    }

    private static List<String> describe(FileStatus[] statuses) {
        return Arrays.stream(statuses)
                .map(s -> s.getPath() + (s.isDirectory() ? " dir" : " file " + s.getLen()) + " " + s.getModificationTime())
                .sorted().toList();
    }
}
