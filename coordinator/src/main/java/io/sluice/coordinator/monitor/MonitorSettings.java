package io.sluice.coordinator.monitor;

import static io.sluice.common.settings.SettingType.INT;
import static io.sluice.common.settings.SettingType.STRING;

import io.sluice.common.settings.Setting;
import java.util.List;

/** The coordinator's monitoring settings: what the REST API keeps, the event bus's queue, the event log. */
public final class MonitorSettings {
    public static final Setting<Integer> RETAINED_QUERIES = Setting.node("sluice.monitor.retained-queries", INT, 200,
            "finished queries the monitoring API (`/api/v1/queries`) and `sluice history` keep; the oldest is "
                    + "forgotten first").between(1, 100_000);
    public static final Setting<Integer> EVENT_QUEUE = Setting.node("sluice.monitor.event-queue", INT, 100_000,
            "events (query, stage, task) waiting for the monitoring listeners; when full, new events are dropped "
                    + "and counted (`sluice_monitor_events_dropped_total`) so the scheduler never waits")
            .between(16, 10_000_000);
    public static final Setting<String> EVENT_LOG_DIR = Setting.node("sluice.event-log.dir", STRING, "",
            "directory (a local path) where each query's events are written as JSON lines, one file per query, for "
                    + "`sluice history`; empty: no event log. Also `--event-log-dir` on `sluice local` and "
                    + "`sluice coordinator`");

    public static final List<Setting<?>> ALL = List.of(RETAINED_QUERIES, EVENT_QUEUE, EVENT_LOG_DIR);

    private MonitorSettings() {
    }
}
