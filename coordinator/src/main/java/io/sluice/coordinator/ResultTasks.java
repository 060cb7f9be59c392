package io.sluice.coordinator;

import io.sluice.common.SluiceException;
import io.sluice.operators.MapStatus;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;

/**
 * The result stage's map outputs as its tasks report them, and how its job ended; the
 * forwarding thread waits here. A partition's first report wins (it names the committed output).
 */
final class ResultTasks {
    private final MapStatus[] statuses;
    private boolean ended;
    private Throwable failure;

    ResultTasks(int partitions) {
        this.statuses = new MapStatus[partitions];
    }

    synchronized void finished(int partition, MapStatus status) {
        if (statuses[partition] == null) {
            statuses[partition] = status;
            notifyAll();
        }
    }

    synchronized void jobEnded(List<MapStatus> result, Throwable error) {
        ended = true;
        if (error != null) {
            Throwable cause = error;
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            failure = cause;
        } else {
            for (int p = 0; p < statuses.length; p++) {
                if (statuses[p] == null) {
                    statuses[p] = result.get(p);
                }
            }
        }
        notifyAll();
    }

    /** Partition {@code p}'s output once its task finished; null when {@code stop} says so first. */
    synchronized MapStatus await(int p, BooleanSupplier stop) {
        while (true) {
            throwFailure();
            if (statuses[p] != null) {
                return statuses[p];
            }
            if (ended) {
                throw new IllegalStateException("the job ended without an output for result partition " + p);
            }
            if (stop.getAsBoolean()) {
                return null;
            }
            waitQuietly();
        }
    }

    /** Waits for the job to end (its last result task has reported, so it ends at once). */
    synchronized void awaitJob(BooleanSupplier stop) {
        while (!ended && !stop.getAsBoolean()) {
            waitQuietly();
        }
        throwFailure();
    }

    private void throwFailure() {
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException("the query's job failed: " + failure, failure);
        }
    }

    private void waitQuietly() {
        try {
            wait(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while waiting for the query's result");
        }
    }
}
