package io.sluice.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sluice.cluster.serialization.KryoPekkoSerializer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeConfigTest {
    @Test
    void coordinatorSeedsItself() {
        Config c = NodeConfig.coordinator("127.0.0.1", 7355).toConfig();
        assertThat(c.getString("pekko.actor.provider")).isEqualTo("cluster");
        assertThat(c.getString("pekko.remote.artery.transport")).isEqualTo("tcp");
        assertThat(c.getString("pekko.remote.artery.canonical.hostname")).isEqualTo("127.0.0.1");
        assertThat(c.getInt("pekko.remote.artery.canonical.port")).isEqualTo(7355);
        assertThat(c.getStringList("pekko.cluster.seed-nodes")).containsExactly("pekko://sluice@127.0.0.1:7355");
        assertThat(c.getStringList("pekko.cluster.roles")).containsExactly("coordinator");
        assertThat(c.getString("pekko.cluster.downing-provider-class"))
                .isEqualTo("org.apache.pekko.cluster.sbr.SplitBrainResolverProvider");
        assertThat(c.getString("pekko.cluster.split-brain-resolver.active-strategy")).isEqualTo("keep-oldest");
        assertThat(c.getString("pekko.cluster.split-brain-resolver.keep-oldest.role")).isEqualTo("coordinator");
        assertThat(c.getBoolean("pekko.cluster.split-brain-resolver.keep-oldest.down-if-alone")).isFalse();
        assertThat(c.getDuration("pekko.cluster.split-brain-resolver.stable-after")).isEqualTo(Duration.ofSeconds(7));
        assertThat(c.getBoolean("pekko.coordinated-shutdown.exit-jvm")).isFalse();
        assertThat(c.getBoolean("pekko.cluster.jmx.enabled")).isFalse();
        assertThat(c.getBoolean("pekko.java-flight-recorder.enabled")).isFalse();
        assertThat(c.getBoolean("pekko.cluster.jmx.multi-mbeans-in-same-jvm")).isTrue();
        // off by default, but the user's own configuration turns them back on
        Config own = NodeConfig.coordinator("127.0.0.1", 7355).toConfig(ConfigFactory.parseString(
                "pekko.cluster.jmx.enabled = on\npekko.java-flight-recorder.enabled = on").withFallback(ConfigFactory.load()));
        assertThat(own.getBoolean("pekko.cluster.jmx.enabled")).isTrue();
        assertThat(own.getBoolean("pekko.java-flight-recorder.enabled")).isTrue();
        assertThat(c.getStringList("pekko.loggers")).containsExactly("org.apache.pekko.event.slf4j.Slf4jLogger");
        assertThat(c.getString("pekko.loglevel")).isEqualTo("WARNING");
        // Pekko's ordinary frames; a larger protocol message goes in parts (LargeMessages), no large-message stream
        assertThat(c.getBytes("pekko.remote.artery.advanced.maximum-frame-size")).isEqualTo(256L * 1024);
        assertThat(c.getStringList("pekko.remote.artery.large-message-destinations")).isEmpty();
        assertThat(c.getBoolean("pekko.actor.allow-java-serialization")).isFalse();
        assertThat(c.getString("pekko.actor.serializers.sluice-kryo")).isEqualTo(KryoPekkoSerializer.class.getName());
        assertThat(c.getString("pekko.actor.serialization-bindings.\"io.sluice.cluster.protocol.SluiceMessage\""))
                .isEqualTo("sluice-kryo");
    }

    @Test
    void coordinatorOnPortZeroHasNoSeeds() {
        assertThat(NodeConfig.coordinator("127.0.0.1", 0).seedNodes()).isEmpty();
    }

    @Test
    void workerJoinsThroughTheCoordinatorAndSettingsApply() {
        NodeConfig worker = NodeConfig.worker("127.0.0.1", 0, "pekko://sluice@127.0.0.1:7355")
                .withStableAfter(Duration.ofMillis(2500)).withLogLevel("INFO").withMaxMessageBytes(1 << 20);
        Config c = worker.toConfig();
        assertThat(c.getInt("pekko.remote.artery.canonical.port")).isZero();
        assertThat(c.getStringList("pekko.cluster.seed-nodes")).containsExactly("pekko://sluice@127.0.0.1:7355");
        assertThat(c.getStringList("pekko.cluster.roles")).containsExactly("worker");
        assertThat(c.getDuration("pekko.cluster.split-brain-resolver.stable-after")).isEqualTo(Duration.ofMillis(2500));
        assertThat(c.getString("pekko.loglevel")).isEqualTo("INFO");
        assertThat(worker.maxMessageBytes()).isEqualTo(1 << 20);
        // a worker learns the coordinator's receptionist entry within a fraction of a second of joining
        assertThat(c.getDuration("pekko.cluster.typed.receptionist.distributed-data.gossip-interval"))
                .isEqualTo(Duration.ofMillis(200));
        assertThat(c.getDuration("pekko.cluster.distributed-data.gossip-interval")).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void settingsWinOverTheFallbackWhichFillsTheRest() {
        Config fallback = ConfigFactory.parseString("pekko.loglevel = DEBUG\nsluice.extra = 42")
                .withFallback(ConfigFactory.load());
        Config c = NodeConfig.coordinator("127.0.0.1", 7355).toConfig(fallback);
        assertThat(c.getString("pekko.loglevel")).isEqualTo("WARNING");
        assertThat(c.getInt("sluice.extra")).isEqualTo(42);
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> NodeConfig.coordinator("127.0.0.1", 70000)).hasMessageContaining("port");
        assertThatThrownBy(() -> NodeConfig.coordinator(" ", 1)).hasMessageContaining("hostname");
        assertThatThrownBy(() -> NodeConfig.worker("127.0.0.1", 0, "pekko://other@127.0.0.1:1"))
                .hasMessageContaining("seed node");
        assertThatThrownBy(() -> NodeConfig.coordinator("127.0.0.1", 1).withStableAfter(Duration.ZERO))
                .hasMessageContaining("stableAfter");
        assertThatThrownBy(() -> NodeConfig.coordinator("127.0.0.1", 1).withLogLevel("LOUD"))
                .hasMessageContaining("log level");
        assertThatThrownBy(() -> NodeConfig.coordinator("127.0.0.1", 1).withSeedNodes(null))
                .isInstanceOf(NullPointerException.class);
        assertThat(NodeConfig.coordinator("127.0.0.1", 1).withSeedNodes(List.of()).seedNodes()).isEmpty();
    }

    /** A long GC pause is not a crash: 10 s without heartbeats by default, configurable, never below 2 s. */
    @Test
    void heartbeatPauseToleratesLongPausesAndIsConfigurable() {
        NodeConfig worker = NodeConfig.worker("127.0.0.1", 0, "pekko://sluice@127.0.0.1:7355");
        assertThat(worker.toConfig().getDuration("pekko.cluster.failure-detector.acceptable-heartbeat-pause"))
                .isEqualTo(NodeConfig.DEFAULT_HEARTBEAT_PAUSE).isEqualTo(Duration.ofSeconds(10));
        assertThat(worker.withHeartbeatPause(Duration.ofSeconds(30)).toConfig()
                .getDuration("pekko.cluster.failure-detector.acceptable-heartbeat-pause")).isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> worker.withHeartbeatPause(Duration.ofMillis(500)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("below 2 s");
        System.setProperty("sluice.cluster.heartbeat-pause", "25s");
        try {
            assertThat(NodeConfig.configuredHeartbeatPause()).isEqualTo(Duration.ofSeconds(25));
            System.setProperty("sluice.cluster.heartbeat-pause", "soon");
            assertThatThrownBy(NodeConfig::configuredHeartbeatPause).isInstanceOf(io.sluice.common.SluiceException.class)
                    .hasMessageContaining("-Dsluice.cluster.heartbeat-pause")
                    .hasMessageContaining("'soon'");
        } finally {
            System.clearProperty("sluice.cluster.heartbeat-pause");
        }
    }
}
