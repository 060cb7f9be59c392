package io.sluice.worker;

import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.SettingsDeclaration;
import java.util.List;

/** A worker's settings ({@link WorkerSettings}). */
public final class WorkerSettingsDeclaration implements SettingsDeclaration {
    public static final Setting<Long> MEMORY = Setting.node("sluice.worker.memory", SettingType.BYTE_SIZE, null,
            "a worker's memory for its tasks (heap structures and Arrow buffers together; operators spill against it, "
                    + "and Arrow buffers in flight may pass it by a quarter before an allocation fails); unset: 60% of the JVM's "
                    + "maximum heap, divided among the workers of an embedded cluster; also `sluice worker --memory`")
            .atLeast(1L);

    @Override
    public List<Setting<?>> settings() {
        return List.of(MEMORY);
    }
}
