package io.sluice.coordinator;

import io.sluice.common.SluiceException;
import java.util.Locale;

/** How queued tasks of different jobs take turns ({@code sluice.scheduler.mode}; see {@link TaskQueue}). */
public enum SchedulingMode {
    FIFO, FAIR;

    static SchedulingMode parse(String name, String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "fifo" -> FIFO;
            case "fair" -> FAIR;
            default -> throw new SluiceException("setting " + name + " is fifo or fair, not '" + value + "'");
        };
    }
}
