package io.sluice.coordinator;

import java.util.List;

/**
 * Runs a submitted job jar's main on the coordinator ({@code sluice submit --deploy-mode cluster},
 * {@code POST /v1/submit}). The coordinator cannot link the client API, so whoever starts it (the
 * {@code sluice coordinator} command, an embedded cluster) installs the runner that binds {@code
 * Session.create()} to this coordinator ({@link Coordinator#acceptJobs}).
 */
public interface ClusterJobRunner {
    /** What a job left: its exit code (0 when main returned), what it printed, and why it failed (or null). */
    record Outcome(int exitCode, String output, String error) {
    }

    /**
     * Runs {@code mainClass} (null: the jar's Main-Class) of the jar with {@code args} and waits for
     * it to end.
     */
    Outcome run(byte[] jar, String mainClass, List<String> args);
}
