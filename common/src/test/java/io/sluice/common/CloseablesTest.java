package io.sluice.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A close that fails is never lost: it is attached to the error being thrown, and an interrupt stays set. */
class CloseablesTest {
    @Test
    void aFailingCloseIsAttachedToTheFailureAtHand() {
        IllegalStateException failure = new IllegalStateException("reading failed");
        Closeables.closeOnFailure(() -> {
            throw new IOException("close failed");
        }, failure);
        assertThat(failure.getSuppressed()).singleElement().satisfies(e -> assertThat(e).hasMessage("close failed"));
        Closeables.closeOnFailure(null, failure);
        assertThat(failure.getSuppressed()).hasSize(1);
    }

    @Test
    void anInterruptedCloseKeepsTheInterrupt() {
        try {
            Closeables.closeLogging(() -> {
                throw new InterruptedException("stopped");
            }, "a test resource");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
