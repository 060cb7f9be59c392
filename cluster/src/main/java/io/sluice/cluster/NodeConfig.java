package io.sluice.cluster;

import static java.util.Objects.requireNonNull;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.sluice.cluster.auth.ArteryCredentials;
import io.sluice.cluster.auth.SecretSslEngineProvider;
import io.sluice.cluster.protocol.SluiceMessage;
import io.sluice.cluster.serialization.KryoPekkoSerializer;
import io.sluice.cluster.serialization.Kryos;
import io.sluice.common.SluiceException;
import io.sluice.common.net.SecretStrength;
import io.sluice.common.settings.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Everything that differs between Sluice nodes, and the Pekko configuration built from it.
 *
 * <p>What {@link #toConfig()} guarantees:
 * <ul>
 *   <li>Cluster provider over Artery TCP (TLS with a secret) on {@code hostname:port}; port 0 takes a free port (read it
 *       back with {@link SluiceNode#selfAddress}). Several nodes may share one JVM.</li>
 *   <li>Downing by the Split Brain Resolver with {@code keep-oldest} among {@code coordinator}
 *       members and {@code down-if-alone = off}: the coordinator, which starts the cluster and so is
 *       the oldest, survives any worker's death or partition; workers cut off from it down
 *       themselves (their actor system terminates; the JVM does not exit). If the coordinator dies,
 *       the workers go down too. {@code down-all-when-unstable} is off so that flapping workers
 *       delay decisions rather than take the coordinator down.</li>
 *   <li>{@link SluiceMessage}s go through {@link KryoPekkoSerializer}; Java serialization is off.</li>
 *   <li>Logging through SLF4J at {@code logLevel}; protocol messages up to {@code maxMessageBytes}.</li>
 *   <li>Failure detection: a heartbeat a second, and a member is unreachable only after
 *       {@code heartbeatPause} without one (default 10 s, or
 *       {@code SLUICE_HEARTBEAT_PAUSE} / {@code -Dsluice.cluster.heartbeat-pause}). Pekko's 3 s
 *       default mistakes a full GC of a large worker heap, or a loaded host, for a crash; 10 s
 *       rides out such pauses while a dead worker's running tasks still move elsewhere within
 *       about 10 s (its lost map outputs are noticed sooner, by the readers' failed fetches). An
 *       unreachable worker gets no new tasks; it is downed (removed for good) only after a further
 *       {@code stableAfter} of being unreachable, so a pause up to {@code heartbeatPause +
 *       stableAfter} costs re-run tasks but not the worker.</li>
 * </ul>
 *
 * <p>Frames: Artery makes each buffer of a stream at the stream's frame size, zeroed (every page
 * touched), as soon as the stream carries anything. All messages travel Pekko's ordinary 256 KiB
 * frames; a protocol message larger than that goes in parts ({@link LargeMessages}), up to {@code
 * maxMessageBytes}. With 32 MiB frames, each actor system of an embedded cluster zeroed some 64 MiB
 * of buffers at its start: a third of a second of CPU and 200 MB of resident memory for {@code
 * sluice sql --local 2}.
 *
 * @param seedNodes addresses like {@code pekko://sluice@127.0.0.1:7355}; empty means "start a new
 *                  cluster": {@link SluiceNode#start} then joins the node to itself
 * @param arteryCredentials null for plain TCP; else the handle of this node's {@link ArteryCredentials}
 *                  ({@link #withSecret}): Artery then runs over TLS with mutual authentication, and only
 *                  nodes proving the same secret can connect, join or send anything
 */
public record NodeConfig(NodeRole role, String hostname, int port, List<String> seedNodes, Duration stableAfter,
                         String logLevel, int maxMessageBytes, Duration heartbeatPause, String arteryCredentials) {
    /** The actor system name; seed addresses must use it. */
    public static final String SYSTEM_NAME = "sluice";
    public static final Duration DEFAULT_STABLE_AFTER = Duration.ofSeconds(7);
    public static final String DEFAULT_LOG_LEVEL = "WARNING";
    public static final int DEFAULT_MAX_MESSAGE_BYTES = Kryos.MAX_MESSAGE_BYTES;
    public static final Duration DEFAULT_HEARTBEAT_PAUSE = ClusterSettingsDeclaration.HEARTBEAT_PAUSE.defaultValue();

    private static final Set<String> LOG_LEVELS = Set.of("OFF", "ERROR", "WARNING", "INFO", "DEBUG");

    public NodeConfig {
        requireNonNull(role, "role is null");
        requireNonNull(heartbeatPause, "heartbeatPause is null");
        if (heartbeatPause.compareTo(Duration.ofSeconds(2)) < 0) {
            throw new IllegalArgumentException("heartbeat pause below 2 s (heartbeats are 1 s apart): " + heartbeatPause);
        }
        requireNonNull(hostname, "hostname is null");
        if (hostname.isBlank()) {
            throw new IllegalArgumentException("hostname is blank");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
        seedNodes = List.copyOf(requireNonNull(seedNodes, "seedNodes is null"));
        for (String seed : seedNodes) {
            if (!seed.startsWith("pekko://" + SYSTEM_NAME + "@")) {
                throw new IllegalArgumentException("seed node " + seed + " is not a pekko://" + SYSTEM_NAME
                        + "@host:port address");
            }
        }
        requireNonNull(stableAfter, "stableAfter is null");
        if (stableAfter.isNegative() || stableAfter.isZero()) {
            throw new IllegalArgumentException("stableAfter must be positive: " + stableAfter);
        }
        requireNonNull(logLevel, "logLevel is null");
        if (!LOG_LEVELS.contains(logLevel)) {
            throw new IllegalArgumentException("log level " + logLevel + " is not one of " + LOG_LEVELS);
        }
        if (maxMessageBytes < 32 * 1024 || maxMessageBytes > Kryos.MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("maxMessageBytes not between 32 KiB and what a node reads ("
                    + Kryos.MAX_MESSAGE_BYTES + "): " + maxMessageBytes);
        }
    }

    /**
     * A copy whose Artery connections are TLS, each side proving {@code secret} (null: plain TCP,
     * no authentication). Makes the key pairs and certificates of this secret now, unless another
     * node of this JVM proving the same secret already has them ({@link ArteryCredentials}).
     */
    public NodeConfig withSecret(String secret) {
        return new NodeConfig(role, hostname, port, seedNodes, stableAfter, logLevel, maxMessageBytes, heartbeatPause,
                secret == null ? null : ArteryCredentials.register(SecretStrength.requireStrong(secret)));
    }

    /**
     * A coordinator on {@code hostname:port} that seeds itself: with a fixed port through its own
     * address in {@code seed-nodes}, with port 0 by joining itself after start.
     */
    public static NodeConfig coordinator(String hostname, int port) {
        List<String> seeds = port == 0 ? List.of() : List.of(address(hostname, port));
        return new NodeConfig(NodeRole.COORDINATOR, hostname, port, seeds, DEFAULT_STABLE_AFTER, DEFAULT_LOG_LEVEL,
                DEFAULT_MAX_MESSAGE_BYTES, configuredHeartbeatPause(), null);
    }

    /** A worker on {@code hostname:port} (0 for any free port) that joins through {@code coordinatorAddress}. */
    public static NodeConfig worker(String hostname, int port, String coordinatorAddress) {
        return new NodeConfig(NodeRole.WORKER, hostname, port, List.of(coordinatorAddress), DEFAULT_STABLE_AFTER,
                DEFAULT_LOG_LEVEL, DEFAULT_MAX_MESSAGE_BYTES, configuredHeartbeatPause(), null);
    }

    /**
     * {@code -Dsluice.cluster.heartbeat-pause}, else {@code SLUICE_HEARTBEAT_PAUSE}, else
     * {@link #DEFAULT_HEARTBEAT_PAUSE} ({@link ClusterSettingsDeclaration#HEARTBEAT_PAUSE}); a bad
     * value is an error naming where it came from.
     */
    static Duration configuredHeartbeatPause() {
        Setting<Duration> setting = ClusterSettingsDeclaration.HEARTBEAT_PAUSE;
        String value = System.getProperty(setting.name());
        String source = "-D" + setting.name();
        if (value == null || value.isBlank()) {
            value = System.getenv("SLUICE_HEARTBEAT_PAUSE");
            source = "SLUICE_HEARTBEAT_PAUSE";
        }
        if (value == null || value.isBlank()) {
            return setting.defaultValue();
        }
        try {
            return setting.parse(value);
        } catch (SluiceException e) {
            throw new SluiceException(source + ": " + e.getMessage());
        }
    }

    /** The address of a Sluice node, as seed nodes name it. */
    public static String address(String hostname, int port) {
        return "pekko://" + SYSTEM_NAME + "@" + hostname + ":" + port;
    }

    public NodeConfig withStableAfter(Duration value) {
        return new NodeConfig(role, hostname, port, seedNodes, value, logLevel, maxMessageBytes, heartbeatPause,
                arteryCredentials);
    }

    public NodeConfig withLogLevel(String value) {
        return new NodeConfig(role, hostname, port, seedNodes, stableAfter, value, maxMessageBytes, heartbeatPause,
                arteryCredentials);
    }

    public NodeConfig withSeedNodes(List<String> value) {
        return new NodeConfig(role, hostname, port, value, stableAfter, logLevel, maxMessageBytes, heartbeatPause,
                arteryCredentials);
    }

    public NodeConfig withMaxMessageBytes(int value) {
        return new NodeConfig(role, hostname, port, seedNodes, stableAfter, logLevel, value, heartbeatPause,
                arteryCredentials);
    }

    /** How long a member may go without heartbeats before it is unreachable. */
    public NodeConfig withHeartbeatPause(Duration value) {
        return new NodeConfig(role, hostname, port, seedNodes, stableAfter, logLevel, maxMessageBytes, value,
                arteryCredentials);
    }

    /**
     * Settings off unless the user's own configuration (application.conf, {@code -Dpekko...}, the
     * fallback given) turns them on: Pekko's cluster MBean (the HTTP API shows the workers;
     * registering it made the JVM's platform MBean server at each node's start) and Artery's Flight
     * Recorder events (loading and registering their classes, and the JDK's JFR classes behind them,
     * cost each start about 0.2 s of CPU).
     */
    private static final List<String> OFF_UNLESS_SET = List.of("pekko.cluster.jmx.enabled",
            "pekko.java-flight-recorder.enabled");

    /** {@link #OFF_UNLESS_SET} as off, but those {@code fallback} sets other than in a reference.conf. */
    private static Config offUnlessSet(Config fallback) {
        Config off = ConfigFactory.empty();
        for (String path : OFF_UNLESS_SET) {
            boolean userSet = fallback.hasPath(path)
                    && !"reference.conf".equals(fallback.getValue(path).origin().resource());
            if (!userSet) {
                off = off.withValue(path, ConfigValueFactory.fromAnyRef(false));
            }
        }
        return off;
    }

    /** This node's settings over {@code ConfigFactory.load()} (application.conf, then Pekko's defaults). */
    public Config toConfig() {
        return toConfig(ConfigFactory.load());
    }

    /** This node's settings over {@code fallback}; the settings here always win. */
    public Config toConfig(Config fallback) {
        Config fixed = ConfigFactory.parseString(String.join("\n",
                "pekko.actor.provider = cluster",
                "pekko.cluster.downing-provider-class = \"org.apache.pekko.cluster.sbr.SplitBrainResolverProvider\"",
                "pekko.cluster.split-brain-resolver.active-strategy = keep-oldest",
                "pekko.cluster.split-brain-resolver.keep-oldest.down-if-alone = off",
                "pekko.cluster.split-brain-resolver.keep-oldest.role = " + NodeRole.COORDINATOR.roleName(),
                "pekko.cluster.split-brain-resolver.down-all-when-unstable = off",
                "pekko.cluster.failure-detector.heartbeat-interval = 1s",
                // Membership changes (joining, up, leaving, removed) take a few gossip rounds and
                // leader actions each: at 200 ms rather than Pekko's 1 s, a worker is Up and a leaving
                // one removed in well under a second (an embedded cluster starts and stops at every
                // 'sluice sql --local'); gossip stays a few small messages a second per node.
                "pekko.cluster.gossip-interval = 200ms",
                "pekko.cluster.leader-actions-interval = 200ms",
                "pekko.cluster.periodic-tasks-initial-delay = 200ms",
                // Workers find the coordinator through the receptionist, whose registry is replicated
                // data: a node that joins later learns entries from its gossip, every 2 s by default,
                // so a worker waited up to 2 s after joining before it could register. The registry
                // is a few keys, so gossip at 200 ms costs little.
                "pekko.cluster.typed.receptionist.distributed-data.gossip-interval = 200ms",
                "pekko.cluster.typed.receptionist.distributed-data.notify-subscribers-interval = 100ms",
                // a node started before its seed answers retries its join after 2 s, not Pekko's 10 s
                "pekko.cluster.retry-unsuccessful-join-after = 2s",
                "pekko.cluster.jmx.multi-mbeans-in-same-jvm = on",
                "pekko.cluster.run-coordinated-shutdown-when-down = on",
                "pekko.coordinated-shutdown.exit-jvm = off",
                "pekko.loggers = [\"org.apache.pekko.event.slf4j.Slf4jLogger\"]",
                "pekko.logging-filter = \"org.apache.pekko.event.slf4j.Slf4jLoggingFilter\"",
                "pekko.log-dead-letters-during-shutdown = off",
                "pekko.actor.allow-java-serialization = off",
                "pekko.actor.serializers.sluice-kryo = \"" + KryoPekkoSerializer.class.getName() + "\"",
                "pekko.actor.serialization-bindings { \"" + SluiceMessage.class.getName() + "\" = sluice-kryo }"));
        Config transport = arteryCredentials == null
                ? ConfigFactory.parseString("pekko.remote.artery.transport = tcp")
                : ConfigFactory.parseString(String.join("\n",
                        "pekko.remote.artery.transport = tls-tcp",
                        "pekko.remote.artery.ssl.ssl-engine-provider = \"" + SecretSslEngineProvider.class.getName() + "\"",
                        "pekko.remote.artery.ssl.config-ssl-engine.protocol = TLSv1.3",
                        "pekko.remote.artery.ssl.config-ssl-engine.enabled-algorithms = [TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384]",
                        "pekko.remote.artery.ssl.config-ssl-engine.require-mutual-authentication = on",
                        "pekko.remote.artery.ssl.config-ssl-engine.hostname-verification = off",
                        "pekko.remote.artery.ssl.config-ssl-engine." + SecretSslEngineProvider.HANDLE_KEY + " = \""
                                + arteryCredentials + "\""));
        return ConfigFactory.empty()
                .withValue("pekko.remote.artery.canonical.hostname", ConfigValueFactory.fromAnyRef(hostname))
                .withValue("pekko.remote.artery.canonical.port", ConfigValueFactory.fromAnyRef(port))
                .withValue("pekko.remote.artery.advanced.maximum-frame-size",
                        ConfigValueFactory.fromAnyRef(LargeMessages.ORDINARY_FRAME_BYTES + "b"))
                .withValue("pekko.cluster.seed-nodes", ConfigValueFactory.fromIterable(seedNodes))
                .withValue("pekko.cluster.roles", ConfigValueFactory.fromIterable(List.of(role.roleName())))
                .withValue("pekko.cluster.split-brain-resolver.stable-after",
                        ConfigValueFactory.fromAnyRef(stableAfter.toMillis() + "ms"))
                .withValue("pekko.cluster.failure-detector.acceptable-heartbeat-pause",
                        ConfigValueFactory.fromAnyRef(heartbeatPause.toMillis() + "ms"))
                .withValue("pekko.loglevel", ConfigValueFactory.fromAnyRef(logLevel))
                .withValue("pekko.stdout-loglevel", ConfigValueFactory.fromAnyRef(logLevel))
                .withFallback(transport)
                .withFallback(fixed)
                .withFallback(offUnlessSet(fallback))
                .withFallback(fallback)
                .resolve();
    }
}
