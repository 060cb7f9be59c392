package io.sluice.coordinator;

import io.sluice.common.settings.Settings;
import io.sluice.coordinator.monitor.EventBus;
import io.sluice.coordinator.monitor.EventLogWriter;
import io.sluice.coordinator.monitor.MonitorSettings;
import io.sluice.coordinator.monitor.QueryStore;
import java.nio.file.Path;

/**
 * A coordinator's monitoring: the event bus its scheduler, dispatcher and query threads post to,
 * and its listeners: the query store behind the REST API and, with {@code sluice.event-log.dir},
 * the event log. Settings are read from the node's system properties ({@code --conf}).
 */
final class CoordinatorMonitoring implements AutoCloseable {
    private final EventBus bus;
    private final QueryStore store;

    CoordinatorMonitoring(long startMillis) {
        this.bus = new EventBus(Settings.systemProperty(MonitorSettings.EVENT_QUEUE));
        this.store = new QueryStore(Settings.systemProperty(MonitorSettings.RETAINED_QUERIES));
        bus.addListener(store);
        String directory = Settings.systemProperty(MonitorSettings.EVENT_LOG_DIR);
        if (!directory.isBlank()) {
            bus.addListener(EventLogWriter.open(Path.of(directory), startMillis));
        }
    }

    EventBus bus() {
        return bus;
    }

    QueryStore store() {
        return store;
    }

    /** Delivers the events posted so far and closes the listeners (the event log's open files). */
    @Override
    public void close() {
        bus.close();
    }
}
