package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.serialization.Kryos;
import io.sluice.plan.SluiceException;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.ExecutionPlans;
import io.sluice.plan.physical.MapStatus;
import io.sluice.shuffle.ShuffleReaderExec;
import io.sluice.shuffle.ShuffleWriterExec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a job's stages in dependency order: a stage starts once its parents' map outputs are known,
 * which are then bound into its shuffle readers; its tasks (one per partition) run in parallel on
 * the workers. Returns the result stage's map outputs, in partition order.
 */
public final class DagScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(DagScheduler.class);

    /** Told when a stage's tasks have all finished (for metrics, and for failure tests). */
    public interface StageListener {
        void stageCompleted(String jobId, int stageId);
    }

    private final TaskLauncher launcher;
    private final long jobTimeoutMillis;
    private final List<StageListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public DagScheduler(TaskLauncher launcher, long jobTimeoutMillis) {
        this.launcher = requireNonNull(launcher, "launcher is null");
        this.jobTimeoutMillis = jobTimeoutMillis;
    }

    public void addListener(StageListener listener) {
        listeners.add(requireNonNull(listener, "listener is null"));
    }

    public void removeListener(StageListener listener) {
        listeners.remove(listener);
    }

    public List<MapStatus> run(String jobId, List<Stage> stages) {
        long deadline = System.currentTimeMillis() + jobTimeoutMillis;
        Map<String, List<MapStatus>> outputs = new HashMap<>();
        List<MapStatus> last = List.of();
        for (Stage stage : stages) {
            ShuffleWriterExec bound = (ShuffleWriterExec) ExecutionPlans.transformUp(stage.plan(),
                    node -> bindReader(node, outputs));
            byte[] bytes = Kryos.serialize(bound);
            int tasks = stage.taskCount();
            LOG.debug("job {} stage {}: {} tasks", jobId, stage.id(), tasks);
            List<CompletableFuture<MapStatus>> futures = new ArrayList<>(tasks);
            for (int p = 0; p < tasks; p++) {
                futures.add(launcher.launch(jobId, stage.id(), p, bytes));
            }
            List<MapStatus> statuses = new ArrayList<>(tasks);
            for (CompletableFuture<MapStatus> f : futures) {
                statuses.add(await(f, deadline, jobId, stage));
            }
            outputs.put(stage.shuffleId(), statuses);
            last = statuses;
            for (StageListener listener : listeners) {
                listener.stageCompleted(jobId, stage.id());
            }
        }
        return last;
    }

    private static ExecutionPlan bindReader(ExecutionPlan node, Map<String, List<MapStatus>> outputs) {
        if (node instanceof ShuffleReaderExec reader) {
            List<MapStatus> statuses = outputs.get(reader.shuffleId());
            if (statuses == null) {
                throw new IllegalStateException("stage reads shuffle " + reader.shuffleId() + " before it ran");
            }
            return reader.withMapOutputs(statuses);
        }
        return node;
    }

    private static MapStatus await(CompletableFuture<MapStatus> future, long deadline, String jobId, Stage stage) {
        try {
            return future.get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof SluiceException user) {
                throw user;
            }
            if (cause instanceof TaskFailedException failed) {
                throw failed;
            }
            throw new TaskFailedException("job " + jobId + " stage " + stage.id() + " failed: " + cause);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new SluiceException("job " + jobId + " timed out in stage " + stage.id());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("job " + jobId + " was interrupted");
        }
    }
}
