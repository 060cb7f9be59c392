package io.sluice.common;

import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closing a resource where its close failing must not replace the error or the result at hand,
 * without losing that failure either: it is attached to the error being thrown, or logged.
 */
public final class Closeables {
    private static final Logger LOG = LoggerFactory.getLogger(Closeables.class);

    private Closeables() {
    }

    /** Closes {@code resource} (null: nothing) while {@code failure} is thrown; a close failure is added to it, suppressed. */
    public static void closeOnFailure(AutoCloseable resource, Throwable failure) {
        close(resource, failure::addSuppressed);
    }

    /**
     * Closes {@code resource} (null: nothing) at the end of its use, where nobody waits for an
     * error (a read stream, a cleanup); a close failure is logged at WARN with its cause, naming {@code what}.
     */
    public static void closeLogging(AutoCloseable resource, Object what) {
        close(resource, e -> LOG.warn("closing {} failed", what, e));
    }

    private static void close(AutoCloseable resource, Consumer<Exception> failed) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            failed.accept(e);
        }
    }
}
