package io.sluice.datasource;

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
}
