package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.api.LocalCluster;
import io.sluice.cluster.ClusterSettingsDeclaration;
import io.sluice.common.SluiceException;
import io.sluice.coordinator.QueryConfig;
import io.sluice.coordinator.SchedulingMode;
import io.sluice.shuffle.ShuffleCompression;
import io.sluice.shuffle.ShuffleSettingsDeclaration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sluice.conf, then SLUICE_* variables, then --conf flags: each layer overrides the one before. */
class SluiceConfTest {
    @TempDir
    Path dir;

    @Test
    void theFileIsOverriddenByTheEnvironmentAndTheEnvironmentByFlags() throws Exception {
        Path file = dir.resolve("sluice.conf");
        Files.writeString(file, """
                sluice {
                  task { timeout = 30s, max-attempts = 3 }
                  scheduler.mode = fair
                  shuffle.partitions = 8
                }
                sluice.shuffle.compression = zstd
                """);
        SluiceConf conf = SluiceConf.load(null,
                Map.of("SLUICE_CONF", file.toString(), "SLUICE_TASK_MAX_ATTEMPTS", "5", "SLUICE_SHUFFLE_PARTITIONS", "16"),
                Map.of("sluice.task.max-attempts", "6"));
        assertThat(conf.scheduler().taskTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(conf.scheduler().taskMaxAttempts()).isEqualTo(6);
        assertThat(conf.scheduler().mode()).isEqualTo(SchedulingMode.FAIR);
        assertThat(conf.queryDefaults(QueryConfig.defaults()).shufflePartitions()).isEqualTo(16);
        assertThat(conf.settings().get(ShuffleSettingsDeclaration.COMPRESSION)).isEqualTo(ShuffleCompression.ZSTD);
        assertThat(ClusterSettingsDeclaration.HEARTBEAT_PAUSE.environmentName()).isEqualTo("SLUICE_CLUSTER_HEARTBEAT_PAUSE");
    }

    /** A stray variable or a shared config file must not turn authentication off: only -D and --insecure do. */
    @Test
    void authenticationSettingsAreReadOnlyAsSystemProperties() throws Exception {
        SluiceConf conf = SluiceConf.load(null, Map.of("SLUICE_AUTH_ENABLED", "false"), Map.of());
        assertThat(conf.settings().explicit()).doesNotContainKey("sluice.auth.enabled");
        assertThatThrownBy(() -> SluiceConf.load(null, Map.of(), Map.of("sluice.auth.enabled", "false")))
                .isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("--conf: sluice.auth.enabled is read only as a -D property");
        Path file = dir.resolve("auth.conf");
        Files.writeString(file, "sluice.auth.secret-file = /tmp/x\n");
        assertThatThrownBy(() -> SluiceConf.load(file, Map.of(), Map.of()))
                .hasMessageContaining("sluice.auth.secret-file is read only as a -D property");
    }

    /** A value given explicitly overrides the layers below it even when it equals the default. */
    @Test
    void anExplicitDefaultStillOverrides() {
        SluiceConf conf = SluiceConf.load(null, Map.of("SLUICE_SHUFFLE_COMPRESSION", "zstd"),
                Map.of("sluice.shuffle.compression", "lz4"));
        assertThat(conf.settings().get(ShuffleSettingsDeclaration.COMPRESSION)).isEqualTo(ShuffleCompression.LZ4_FRAME);
        assertThat(conf.settings().isSet(ShuffleSettingsDeclaration.COMPRESSION)).isTrue();
    }

    @Test
    void unknownNamesAndMissingFilesAreErrorsNamingThem() throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "sluice.task.timout = 30s\n");
        assertThatThrownBy(() -> SluiceConf.load(file, Map.of(), Map.of())).isInstanceOf(SluiceException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("unknown setting 'sluice.task.timout'")
                .hasMessageContaining("did you mean 'sluice.task.timeout'?");
        assertThatThrownBy(() -> SluiceConf.load(null, Map.of(), Map.of("sluice.nope", "1")))
                .isInstanceOf(SluiceException.class).hasMessageContaining("--conf: unknown setting 'sluice.nope'");
        assertThatThrownBy(() -> SluiceConf.load(null, Map.of(), Map.of("sluice.shuffle.partiton", "8")))
                .hasMessage("--conf: unknown setting 'sluice.shuffle.partiton'; did you mean 'sluice.shuffle.partitions'?");
        assertThatThrownBy(() -> SluiceConf.load(null, Map.of("SLUICE_SHUFFLE_PARTITIONS", "1000000"), Map.of()))
                .hasMessage("SLUICE_SHUFFLE_PARTITIONS: sluice.shuffle.partitions must be between 0 and 10000, not 1000000");
        assertThatThrownBy(() -> SluiceConf.load(dir.resolve("missing.conf"), Map.of(), Map.of()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("missing.conf does not exist");
        assertThatThrownBy(() -> SluiceConf.load(null, Map.of(), Map.of("sluice.task.timeout", "soon")).scheduler())
                .isInstanceOf(SluiceException.class).hasMessageContaining("'soon'");
    }

    @Test
    void settingsOnceOnlySystemPropertiesAreAcceptedAndNodeSettingsBecomeSystemProperties() {
        SluiceConf conf = SluiceConf.load(null, Map.of(), Map.of("sluice.fs.allowed-roots", "/data",
                "sluice.worker.memory", "2g", "sluice.optimizer.max-passes", "5"));
        try {
            conf.applySystemProperties();
            assertThat(System.getProperty("sluice.fs.allowed-roots")).isEqualTo("/data");
            assertThat(System.getProperty("sluice.worker.memory")).isEqualTo("2g");
            assertThat(System.getProperty("sluice.optimizer.max-passes")).isNull();
            assertThat(conf.queryDefaults(QueryConfig.defaults()).maxOptimizerPasses()).isEqualTo(5);
        } finally {
            System.clearProperty("sluice.fs.allowed-roots");
            System.clearProperty("sluice.worker.memory");
        }
    }

    @Test
    void hadoopKeysFromTheFileAndFlagsBecomeNodeProperties() throws Exception {
        Path file = dir.resolve("sluice.conf");
        Files.writeString(file, """
                sluice.hadoop."fs.s3a.endpoint" = "http://127.0.0.1:9000"
                sluice.hadoop."fs.s3a.endpoint.region" = us-east-1
                sluice.hadoop."fs.s3a.secret.key" = s3cr3t
                """);
        SluiceConf conf = SluiceConf.load(file, Map.of(), Map.of("sluice.hadoop.fs.s3a.path.style.access", "true"));
        assertThat(conf.settings().explicit()).containsEntry("sluice.hadoop.fs.s3a.endpoint", "http://127.0.0.1:9000")
                .containsEntry("sluice.hadoop.fs.s3a.endpoint.region", "us-east-1")
                .containsEntry("sluice.hadoop.fs.s3a.path.style.access", "true");
        assertThat(conf.settings().toString()).doesNotContain("s3cr3t");
        try {
            conf.applySystemProperties();
            assertThat(System.getProperty("sluice.hadoop.fs.s3a.endpoint.region")).isEqualTo("us-east-1");
        } finally {
            conf.settings().explicit().keySet().forEach(System::clearProperty);
        }
        // a session may lay its own keys over the node's (issue 26), except those that stay the node's
        assertThat(QueryConfig.defaults().with("sluice.hadoop.fs.s3a.endpoint", "http://elsewhere").hadoopOverrides())
                .containsEntry("fs.s3a.endpoint", "http://elsewhere");
        assertThatThrownBy(() -> QueryConfig.defaults().with("sluice.hadoop.fs.defaultFS", "file:///"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("sluice.hadoop.fs.defaultFS is node-only");
    }

    @Test
    void everyLimitReachesAnEmbeddedCluster() {
        SluiceConf conf = SluiceConf.load(null, Map.of("SLUICE_JOB_TIMEOUT", "2h"), Map.of("sluice.task.timeout", "20s",
                "sluice.shuffle.partitions", "8", "sluice.job.timeout", "90s"));
        LocalCluster.Options options = conf.localCluster(LocalCluster.Options.of(1));
        assertThat(options.jobTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(options.scheduler().taskTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(options.queryDefaults().shufflePartitions()).isEqualTo(8);
        assertThat(SluiceConf.load(null, Map.of("SLUICE_JOB_TIMEOUT", "2h"), Map.of()).jobTimeout())
                .isEqualTo(Duration.ofHours(2));
        assertThat(SluiceConf.load(null, Map.of(), Map.of()).jobTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThatThrownBy(() -> SluiceConf.load(null, Map.of(), Map.of("sluice.job.timeout", "0s")))
                .isInstanceOf(SluiceException.class).hasMessageStartingWith("--conf: ").hasMessageContaining("sluice.job.timeout");
    }
}
