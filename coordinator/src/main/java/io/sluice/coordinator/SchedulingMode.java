package io.sluice.coordinator;

/** How queued tasks of different jobs take turns ({@code sluice.scheduler.mode}; see {@link TaskQueue}). */
public enum SchedulingMode {
    FIFO, FAIR
}
