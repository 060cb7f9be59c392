package io.sluice.datasource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Locations of several paths and globs are held to the allowed roots path by path. */
class FileAccessPolicyTest {
    @TempDir
    Path root;

    @Test
    void everyPathOfALocationMustBeUnderARoot() {
        FileAccessPolicy policy = new FileAccessPolicy(Set.of("file"), List.of(root.toString()));
        assertThatCode(() -> policy.check(root.resolve("a") + "," + root.resolve("b/year=*/*.parquet"))).doesNotThrowAnyException();
        assertThatCode(() -> policy.check(root + "/d={2024-01-01,2024-02-01}")).doesNotThrowAnyException();
        assertThatThrownBy(() -> policy.check(root.resolve("a") + ",/etc/passwd"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("table location /etc/passwd is outside the allowed roots");
        assertThatThrownBy(() -> policy.check(root + "/{x,../..}/etc/passwd"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("is a glob with '..'");
    }

    /** Hadoop's Path keeps '?' and '#' in the path and resolves '..': the policy checks what is opened. */
    @Test
    void queryAndFragmentCharactersCannotHideAPathOutsideTheRoot() {
        FileAccessPolicy policy = new FileAccessPolicy(Set.of("file", "s3a"), List.of(root.toString(), "s3a://bkt/prefix"));
        for (String escape : List.of(root + "/a#/../../../../../../etc/passwd", root + "/a?/../../../../../../etc/passwd",
                "file://" + root + "/a#/../../../../../../etc/passwd", "s3a://bkt/prefix#/../../other/x",
                "file:/etc/passw[d]", "file:/etc/{passwd,shadow}")) {
            assertThatThrownBy(() -> policy.check(escape)).as(escape).isInstanceOf(SluiceException.class)
                    .hasMessageMatching("(?s).*(outside the allowed roots|is a glob with '\\.\\.').*");
        }
        assertThatCode(() -> policy.check(root + "/a#b/c")).doesNotThrowAnyException();
        assertThatCode(() -> policy.check("s3a://bkt/prefix/x?y")).doesNotThrowAnyException();
    }

    @Test
    void anOperatorCanAllowOneBucketPrefixAndNothingElse() {
        FileAccessPolicy policy = FileAccessPolicy.under(List.of("s3a://lake/sales"));
        assertThatCode(() -> policy.check("s3a://lake/sales/2024/part-0.parquet")).doesNotThrowAnyException();
        assertThatCode(() -> policy.check("s3a://lake/sales")).doesNotThrowAnyException();
        assertThatThrownBy(() -> policy.check("s3a://lake/salesx/part-0.parquet")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("s3a://lake/salesx/part-0.parquet is outside the allowed roots [s3a://lake/sales]");
        assertThatThrownBy(() -> policy.check("s3a://lake/sales/../hr/pay.parquet")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("outside the allowed roots");
        assertThatThrownBy(() -> policy.check("s3a://other/sales/x.parquet")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("s3a://other/sales/x.parquet is outside");
        assertThatThrownBy(() -> policy.check("/etc/passwd")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("/etc/passwd is outside");
        assertThatThrownBy(() -> policy.check("hdfs://nn/lake/sales")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("outside");
        assertThatThrownBy(() -> policy.check("gs://lake/sales/x")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("uses scheme 'gs'");
    }

    @Test
    void anEmbeddedClusterOpensEveryScheme() {
        FileAccessPolicy policy = FileAccessPolicy.everywhere();
        for (String location : List.of("/tmp/x.parquet", "s3a://any/x", "hdfs://nn:8020/w", "gs://b/p", "abfss://c@a.dfs/p")) {
            assertThatCode(() -> policy.check(location)).doesNotThrowAnyException();
        }
    }

    /** What the catalog and a write carry is the location as checked: normalized, the same text for every spelling. */
    @Test
    void theCheckedLocationIsTheNormalizedPathThatIsOpened() {
        FileAccessPolicy policy = new FileAccessPolicy(Set.of("file", "s3a"), List.of(root.toString(), "s3a://bkt/prefix"));
        assertThat(policy.check(root + "/a/../b/./c").text()).isEqualTo(root + "/b/c");
        assertThat(policy.check("file://" + root + "/a/../b").text()).isEqualTo("file:" + root + "/b");
        assertThat(policy.check("S3A://bkt/prefix/x/../y#z").text()).isEqualTo("s3a://bkt/prefix/y#z");
        assertThat(policy.check(root + "/%2e%2e/x").text()).as("an encoded dot is a name").isEqualTo(root + "/%2e%2e/x");
        assertThat(policy.check(root + "/a\\,b," + root + "/c").paths()).hasSize(2);
        assertThat(policy.check(root + "/a\\,b," + root + "/c").text()).isEqualTo(root + "/a\\,b," + root + "/c");
    }
}
