package io.sluice.datasource.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HadoopConfigurationTest {
    @TempDir
    Path confDir;

    @Test
    void siteFilesThenSettingsOverTheObjectStoreDefaults() throws Exception {
        Files.writeString(confDir.resolve("core-site.xml"), site("fs.s3a.endpoint", "http://from-site:9000")
                .replace("</configuration>", property("fs.s3a.readahead.range", "256K") + "</configuration>"));
        Files.writeString(confDir.resolve("hdfs-site.xml"), site("dfs.replication", "2"));
        Configuration conf = HadoopConfiguration.build(Map.of("sluice.hadoop.fs.s3a.endpoint", "http://from-setting:9000",
                "sluice.hadoop.fs.s3a.path.style.access", "true"), confDir.toString());
        assertThat(conf.get("fs.s3a.endpoint")).isEqualTo("http://from-setting:9000");
        assertThat(conf.get("fs.s3a.path.style.access")).isEqualTo("true");
        assertThat(conf.get("dfs.replication")).isEqualTo("2");
        assertThat(conf.get("fs.s3a.readahead.range")).isEqualTo("256K");
        assertThat(conf.get("fs.s3a.experimental.input.fadvise")).isEqualTo("random");
    }

    @Test
    void sharedFollowsTheSystemProperties() {
        String name = "sluice.hadoop.sluice.test.marker";
        try {
            System.setProperty(name, "one");
            assertThat(HadoopConfiguration.shared().get("sluice.test.marker")).isEqualTo("one");
            Configuration first = HadoopConfiguration.shared();
            assertThat(HadoopConfiguration.shared()).isSameAs(first);
            System.setProperty(name, "two");
            assertThat(HadoopConfiguration.shared().get("sluice.test.marker")).isEqualTo("two");
        } finally {
            System.clearProperty(name);
        }
        assertThat(HadoopConfiguration.shared().get("sluice.test.marker")).isNull();
    }

    @Test
    void sessionOverridesOverlayTheNodeConfigurationWithFileSystemsOfTheirOwn() throws Exception {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(confDir.toUri());
        FileSystem node = path.getFileSystem(HadoopConfiguration.shared());
        Map<String, String> overrides = Map.of("sluice.test.session", "a");
        FileSystem session = HadoopConfiguration.withOverrides(overrides, () -> {
            assertThat(HadoopConfiguration.shared().get("sluice.test.session")).isEqualTo("a");
            assertThat(HadoopConfiguration.overrides()).isEqualTo(overrides);
            assertThat(SourceFiles.inParallel(List.of(1, 2), i -> HadoopConfiguration.shared().get("sluice.test.session")))
                    .containsExactly("a", "a"); // the listing pool's threads see them too
            return fileSystem(path);
        });
        assertThat(session).isNotSameAs(node);
        FileSystem[] fromThread = new FileSystem[1];
        HadoopConfiguration.withOverrides(overrides, () -> {
            Thread started = new Thread(() -> fromThread[0] = HadoopConfiguration.withOverrides(Map.of(), () -> fileSystem(path)));
            started.start(); // inherits the override set's user: the node's work must not use its file systems
            try {
                started.join(10_000);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return null;
        });
        assertThat(fromThread[0]).isSameAs(node);
        assertThat(HadoopConfiguration.withOverrides(Map.of("sluice.test.session", "a"), () -> fileSystem(path))).isSameAs(session);
        assertThat(HadoopConfiguration.withOverrides(Map.of("sluice.test.session", "b"), () -> fileSystem(path)))
                .isNotSameAs(session).isNotSameAs(node);
        assertThat(HadoopConfiguration.shared().get("sluice.test.session")).isNull();
        assertThat(HadoopConfiguration.overrides()).isEmpty();
        assertThat(path.getFileSystem(HadoopConfiguration.shared())).isSameAs(node);
    }

    @Test
    void keysThatWidenWhatANodeOpensAreNodeOnly() {
        for (String key : List.of("fs.s3a.impl", "fs.AbstractFileSystem.s3a.impl", "fs.defaultFS",
                "hadoop.security.authentication", "fs.s3a.security.credential.provider.path", "fs.s3a.buffer.dir",
                "hadoop.tmp.dir", "fs.s3a.aws.credentials.provider", "io.compression.codecs", "fs.s3a.custom.signers",
                "fs.s3a.s3.client.factory.impl", "dfs.client.failover.proxy.provider", "fs.s3a.retry.policy.class")) {
            assertThatThrownBy(() -> HadoopConfiguration.checkSessionKey(key)).as(key).isInstanceOf(SluiceException.class)
                    .hasMessage("sluice.hadoop." + key + " is node-only: it changes which file systems, classes or local files "
                            + "a node uses, so only the node's configuration (--conf, the config file, HADOOP_CONF_DIR) sets it");
        }
        assertThatThrownBy(() -> HadoopConfiguration.checkSessionValue("fs.s3a.endpoint", "http://${env.HOME}"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("may not hold a ${...} reference");
        HadoopConfiguration.checkSessionValue("fs.s3a.endpoint", "http://127.0.0.1:9000");
        HadoopConfiguration.checkSessionKey("fs.s3a.secret.key");
        HadoopConfiguration.checkSessionKey("fs.s3a.endpoint");
    }

    private static FileSystem fileSystem(org.apache.hadoop.fs.Path path) {
        try {
            return path.getFileSystem(HadoopConfiguration.shared());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String site(String name, String value) {
        return "<?xml version=\"1.0\"?>\n<configuration>" + property(name, value) + "</configuration>\n";
    }

    private static String property(String name, String value) {
        return "<property><name>" + name + "</name><value>" + value + "</value></property>";
    }
}
