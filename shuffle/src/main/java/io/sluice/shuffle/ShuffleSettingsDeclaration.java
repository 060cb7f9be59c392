package io.sluice.shuffle;

import static io.sluice.common.settings.SettingType.BYTE_SIZE;
import static io.sluice.common.settings.SettingType.DURATION;
import static io.sluice.common.settings.SettingType.INT;
import static io.sluice.common.settings.SettingType.LONG;

import io.sluice.common.net.UnprovenLimitSettings;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.SettingsDeclaration;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/** How a worker's tasks write and read shuffle data ({@link ShuffleSettings}, {@link ShuffleClient.Options}). */
public final class ShuffleSettingsDeclaration implements SettingsDeclaration {
    public static final Setting<ShuffleCompression> COMPRESSION = Setting.node("sluice.shuffle.compression",
            SettingType.enumeration(ShuffleCompression.class, c -> switch (c) {
                case NONE -> List.of("none");
                case LZ4_FRAME -> List.of("lz4", "lz4_frame", "lz4-frame");
                case ZSTD -> List.of("zstd");
            }), ShuffleCompression.LZ4_FRAME, "IPC body compression of written shuffle segments");
    public static final Setting<Long> MAX_IN_FLIGHT_BYTES = Setting.node("sluice.shuffle.max-in-flight-bytes",
            BYTE_SIZE, 48L << 20, "per reading task, remote bytes requested but not yet consumed (one larger "
                    + "segment is still fetched, alone); like Spark's `maxSizeInFlight`").atLeast(1L);
    public static final Setting<Integer> MAX_REQUESTS_IN_FLIGHT = Setting.node("sluice.shuffle.max-requests-in-flight",
            INT, 16, "per reading task, remote requests outstanding at once, each holding one pooled connection")
            .atLeast(1);
    public static final Setting<Long> MAX_BUFFERED_ROWS = Setting.node("sluice.shuffle.max-buffered-rows", LONG,
            16L * 8192, "per writing task, rows held on the heap before they are spilled to disk").atLeast(1L);
    public static final Setting<Duration> CONNECT_TIMEOUT = Setting.node("sluice.shuffle.connect-timeout", DURATION,
            Duration.ofSeconds(5), "connecting to another worker's shuffle server and its handshake (per try, "
                    + "3 retries)").atLeast(Duration.ofMillis(1));
    public static final Setting<Duration> IO_TIMEOUT = Setting.node("sluice.shuffle.io-timeout", DURATION,
            Duration.ofSeconds(30), "the wait for an answer, and for more bytes of one, from a shuffle server")
            .atLeast(Duration.ofMillis(1));
    public static final Setting<String> TRANSPORT = Setting.node("sluice.shuffle.transport", SettingType.STRING, "epoll",
            "`nio` forces Java NIO instead of native epoll (used where its library loads)");

    /** Limits on connections that have not proven the secret ({@link ShuffleServer.Options#unauthenticated()}). */
    public static final UnprovenLimitSettings UNAUTHENTICATED = UnprovenLimitSettings.declare("sluice.shuffle",
            "shuffle server", 64, 256);

    @Override
    public List<Setting<?>> settings() {
        return Stream.concat(Stream.of(COMPRESSION, MAX_IN_FLIGHT_BYTES, MAX_REQUESTS_IN_FLIGHT,
                MAX_BUFFERED_ROWS, CONNECT_TIMEOUT, IO_TIMEOUT, TRANSPORT), UNAUTHENTICATED.all().stream()).toList();
    }
}
