package io.sluice.datasource.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listing as Spark lists: recursive, bookkeeping and hidden names skipped (but not {@code _k=v}
 * directories), globs and several paths, Hive partition values decoded and typed, inconsistent
 * directories and bad values refused naming the path.
 */
class SourceFilesTest {
    @TempDir
    Path dir;

    private Path touch(String relative) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "x");
        return file;
    }

    private static List<String> relative(Path root, FileListing listing) {
        String prefix = "file:" + root + "/";
        return listing.files().stream().map(f -> f.path().substring(prefix.length())).toList();
    }

    @Test
    void listsRecursivelySkippingBookkeepingAndHiddenNames() throws IOException {
        touch("a/part-0.parquet");
        touch("a/b/part-1.parquet");
        touch("_SUCCESS");
        touch("_committed_123");
        touch("_started_123");
        touch(".hidden");
        touch("a/.part-0.parquet.crc");
        touch("a/part-0.parquet.crc");
        touch("_temporary/0/part-2.parquet");
        touch(".staging/part-3.parquet");
        FileListing listing = SourceFiles.listing(dir.toString());
        assertThat(relative(dir, listing)).containsExactly("a/b/part-1.parquet", "a/part-0.parquet");
        assertThat(listing.partitionKeys()).isEmpty();
        touch("p/_k=1/part-0.parquet");
        assertThat(SourceFiles.listing(dir.resolve("p").toString()).partitionKeys()).containsExactly("_k");
    }

    @Test
    void partitionDirectoriesGiveDecodedValues() throws IOException {
        touch("year=2024/region=a%2Fb/part-0.parquet");
        touch("year=2025/region=__HIVE_DEFAULT_PARTITION__/part-0.parquet");
        FileListing listing = SourceFiles.listing(dir.toString());
        assertThat(listing.partitionKeys()).containsExactly("year", "region");
        assertThat(listing.files()).extracting(SourceFile::partitionValues)
                .containsExactly(List.of("2024", "a/b"), Arrays.asList("2025", null));
        assertThat(listing.partitionCount()).isEqualTo(2);
        assertThat(PartitionColumns.infer(listing))
                .containsExactly(new Field("year", DataType.INT32), new Field("region", DataType.UTF8));
    }

    @Test
    void globsAndSeveralPathsCountPartitionsFromTheirFixedPrefix() throws IOException {
        touch("d=2024-01-01/part-0.parquet");
        touch("d=2024-01-02/part-0.parquet");
        touch("d=2024-02-01/part-0.parquet");
        FileListing glob = SourceFiles.listing(dir + "/d=2024-01-*/*.parquet");
        assertThat(relative(dir, glob)).containsExactly("d=2024-01-01/part-0.parquet", "d=2024-01-02/part-0.parquet");
        assertThat(PartitionColumns.infer(glob)).containsExactly(new Field("d", DataType.DATE32));
        FileListing alternation = SourceFiles.listing(dir + "/d={2024-01-02,2024-02-01}");
        assertThat(relative(dir, alternation)).containsExactly("d=2024-01-02/part-0.parquet", "d=2024-02-01/part-0.parquet");
        FileListing two = SourceFiles.listing(dir.resolve("d=2024-01-01") + "," + dir.resolve("d=2024-02-01"));
        assertThat(relative(dir, two)).containsExactly("d=2024-01-01/part-0.parquet", "d=2024-02-01/part-0.parquet");
        Path comma = touch("x,y/part-0.parquet");
        assertThat(SourceFiles.list(comma.getParent().toString().replace(",", "\\,"))).hasSize(1);
        assertThatThrownBy(() -> SourceFiles.listing(dir + "/d=1999-*"))
                .isInstanceOf(SluiceException.class).hasMessage("no file matches " + dir + "/d=1999-*");
        assertThatThrownBy(() -> SourceFiles.listing(dir.resolve("d=2024-01-01") + "," + dir.resolve("gone")))
                .isInstanceOf(SluiceException.class).hasMessageContaining("file not found: " + dir.resolve("gone"));
        assertThatThrownBy(() -> SourceFiles.listing(" , ")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("file location is empty");
    }

    @Test
    void typesAreInferredFromAllValues() throws IOException {
        touch("i=1/l=5000000000/m=1/s=2024-01-01/part-0.parquet");
        touch("i=-2/l=3/m=abc/s=2024-13-01/part-0.parquet");
        FileListing listing = SourceFiles.listing(dir.toString());
        assertThat(PartitionColumns.infer(listing)).containsExactly(new Field("i", DataType.INT32),
                new Field("l", DataType.INT64), new Field("m", DataType.UTF8), new Field("s", DataType.UTF8));
    }

    @Test
    void inconsistentDirectoriesAndValuesOfTheWrongTypeNameThePath() throws IOException {
        Path a = touch("a=1/part-0.parquet");
        Path b = touch("b=1/part-0.parquet");
        assertThatThrownBy(() -> SourceFiles.listing(dir.toString()))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("inconsistent partition directories at " + dir)
                .hasMessageContaining(a.toString()).hasMessageContaining(b.toString());

        SourceFile file = new SourceFile("file:/data/k=x/part-0.parquet", 1, 1, List.of("x"));
        assertThatThrownBy(() -> PartitionColumns.stats(file, List.of(new Field("k", DataType.DATE32))))
                .isInstanceOf(SluiceException.class)
                .hasMessage("partition directory k=x of file:/data/k=x/part-0.parquet: 'x' is not a DATE (the type of "
                        + "partition column 'k')");
    }

    @Test
    void hivePathsEscapeAndDecodeAsHive() {
        assertThat(HivePartitionPaths.directory("k", "a/b=c:d%e")).isEqualTo("k=a%2Fb%3Dc%3Ad%25e");
        assertThat(HivePartitionPaths.directory("k", null)).isEqualTo("k=__HIVE_DEFAULT_PARTITION__");
        assertThat(HivePartitionPaths.parse("k=a%2Fb%3Dc%3Ad%25e")).containsExactly("k", "a/b=c:d%e");
        assertThat(HivePartitionPaths.parse("k=caf%C3%A9 100%")).containsExactly("k", "café 100%");
        assertThat(HivePartitionPaths.parse("k=__HIVE_DEFAULT_PARTITION__")).containsExactly("k", null);
        assertThat(HivePartitionPaths.parse("plain")).isNull();
    }
}
