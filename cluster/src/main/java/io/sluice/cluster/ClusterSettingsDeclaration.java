package io.sluice.cluster;

import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.SettingsDeclaration;
import java.time.Duration;
import java.util.List;

/** Cluster membership settings of every node ({@link NodeConfig}). */
public final class ClusterSettingsDeclaration implements SettingsDeclaration {
    public static final Setting<Duration> HEARTBEAT_PAUSE = Setting.node("sluice.cluster.heartbeat-pause",
            SettingType.DURATION, Duration.ofSeconds(10), "a member without heartbeats (sent every second) this long "
                    + "is unreachable; also `SLUICE_HEARTBEAT_PAUSE`").atLeast(Duration.ofSeconds(2));

    @Override
    public List<Setting<?>> settings() {
        return List.of(HEARTBEAT_PAUSE);
    }
}
