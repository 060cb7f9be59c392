package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.operators.FetchFailure;

/** A task failed because a parent map output is gone; the scheduler recomputes it from lineage. */
public final class FetchFailedException extends RuntimeException {
    private final FetchFailure failure;

    public FetchFailedException(FetchFailure failure, String message) {
        super(message);
        this.failure = requireNonNull(failure, "failure is null");
    }

    public FetchFailure failure() {
        return failure;
    }
}
