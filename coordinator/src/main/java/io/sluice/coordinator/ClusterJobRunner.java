package io.sluice.coordinator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a submitted job jar's main on the coordinator ({@code sluice submit --deploy-mode cluster},
 * {@code POST /v1/submit}). The coordinator cannot link the client API, so whoever starts it (the
 * {@code sluice coordinator} command, an embedded cluster) installs the runner that binds {@code
 * Session.create()} to this coordinator ({@link Coordinator#acceptJobs}), and only when job jars
 * are explicitly allowed ({@code --allow-job-jars}).
 */
public interface ClusterJobRunner {
    /** What a job left: its exit code (0 when main returned), what it printed, and why it failed (or null). */
    record Outcome(int exitCode, String output, String error) {
    }

    /**
     * Runs {@code mainClass} (null: the jar's Main-Class) of the jar with {@code args} and waits for
     * it to end, at most {@code timeout}, or until {@code cancel} completes (its client went away):
     * then the job's thread is interrupted and the outcome says why it stopped.
     */
    Outcome run(byte[] jar, String mainClass, List<String> args, Duration timeout, CompletableFuture<Void> cancel);

    /** The largest jar accepted (a larger body is a 413, not read). */
    long maxJarBytes();

    /** The longest a job may run; a client may ask for less. */
    Duration maxRunTime();
}
