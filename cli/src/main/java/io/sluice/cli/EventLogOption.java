package io.sluice.cli;

import io.sluice.coordinator.monitor.MonitorSettings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --event-log-dir DIR} of the commands that run a coordinator: {@code sluice.event-log.dir} (docs/monitoring.md). */
final class EventLogOption {
    @Option(names = "--event-log-dir", paramLabel = "DIR",
            description = "Write each query's events as JSON lines under DIR, for 'sluice history' "
                    + "(the setting sluice.event-log.dir).")
    Path directory;

    /** Sets the node setting the coordinator reads, over --conf and the configuration file. */
    void apply() {
        if (directory != null) {
            System.setProperty(MonitorSettings.EVENT_LOG_DIR.name(), directory.toAbsolutePath().toString());
        }
    }
}
