package io.sluice.api;

import io.sluice.common.settings.Settings;
import java.lang.management.ManagementFactory;

/**
 * With {@code -Dsluice.debug.startup-trace=true}, prints each phase of starting and stopping an
 * embedded cluster and of the CLI around it to stderr, as milliseconds since the JVM started, so
 * that where a command's fixed cost goes can be read off one run (docs/architecture.md). Off, a
 * mark costs one static field read.
 */
public final class StartupTrace {
    private static final boolean ENABLED = Settings.systemProperty(ApiSettingsDeclaration.STARTUP_TRACE);
    private static final long JVM_START = ENABLED ? ManagementFactory.getRuntimeMXBean().getStartTime() : 0;

    private StartupTrace() {
    }

    /** Records that {@code phase} has just ended. */
    public static void mark(String phase) {
        if (ENABLED) {
            System.err.printf("startup-trace %6d ms  %s (%s)%n", System.currentTimeMillis() - JVM_START, phase,
                    Thread.currentThread().getName());
        }
    }
}
