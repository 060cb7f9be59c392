package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.shuffle.stage.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * What every kind of query job shares around its run: a fresh job id per attempt (so a retry never
 * meets the first attempt's files or events), and the removal of the job's shuffle files once it
 * ended, whatever the outcome.
 */
final class JobLifecycle {
    /**
     * Runs of one query's job: a job failing for a reason other than the user's input (a lost
     * worker whose map output is gone) runs once more.
     */
    static final int JOB_ATTEMPTS = 2;

    private final AtomicLong jobIds = new AtomicLong();
    private final Consumer<List<String>> removeShuffles;

    JobLifecycle(Consumer<List<String>> removeShuffles) {
        this.removeShuffles = requireNonNull(removeShuffles, "removeShuffles is null");
    }

    String nextJobId() {
        return "job" + jobIds.incrementAndGet();
    }

    /** Asks the workers to delete the shuffle files of every stage of an ended job. */
    void removeShuffles(List<Stage> stages) {
        List<String> shuffles = new ArrayList<>();
        stages.forEach(s -> shuffles.add(s.shuffleId()));
        removeShuffles.accept(shuffles);
    }
}
