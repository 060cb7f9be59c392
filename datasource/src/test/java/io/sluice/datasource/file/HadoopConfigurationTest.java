package io.sluice.datasource.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
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

    private static String site(String name, String value) {
        return "<?xml version=\"1.0\"?>\n<configuration>" + property(name, value) + "</configuration>\n";
    }

    private static String property(String name, String value) {
        return "<property><name>" + name + "</name><value>" + value + "</value></property>";
    }
}
