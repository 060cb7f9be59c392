package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.scheduler.AttemptsExhaustedException;
import io.sluice.coordinator.scheduler.BlockFetcher;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.coordinator.scheduler.ResolvedSplitPoints;
import io.sluice.coordinator.scheduler.TaskFailedException;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.MapStatus;
import io.sluice.operators.memory.Bytes;
import io.sluice.shuffle.stage.Stage;
import io.sluice.shuffle.stage.StageCutter;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a query's job on the cluster and produces its result: the result stage's blocks are
 * forwarded over the shuffle service into a {@link ResultStream} as their tasks finish, and the
 * job's shuffle files are removed once the result is read. A job that fails for a reason other
 * than the user's input runs once more, unless rows already reached the reader.
 */
final class ResultProducer {
    private static final Logger LOG = LoggerFactory.getLogger(ResultProducer.class);

    private final PlanningPipeline planning;
    private final DagScheduler scheduler;
    private final BlockFetcher fetcher;
    private final BufferAllocator allocator;
    private final JobLifecycle jobs;
    private final RunningQueries running;
    private final QueryEvents events;
    /** Threads that run queries' jobs and forward their results (two per query being read). */
    private final ExecutorService resultThreads = Executors.newCachedThreadPool(
            runnable -> {
                Thread thread = new Thread(runnable, "sluice-result");
                thread.setDaemon(true);
                return thread;
            });

    ResultProducer(PlanningPipeline planning, DagScheduler scheduler, BlockFetcher fetcher, BufferAllocator allocator,
            JobLifecycle jobs, RunningQueries running, QueryEvents events) {
        this.events = requireNonNull(events, "events is null");
        this.planning = requireNonNull(planning, "planning is null");
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        this.fetcher = requireNonNull(fetcher, "fetcher is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.running = requireNonNull(running, "running is null");
    }

    /** Runs a query and collects its whole result, {@code sluice.result.max-bytes} applying, as one Arrow IPC stream. */
    byte[] run(LogicalPlan plan, QueryConfig config, String text, QueryScope scope) {
        return collect(open(plan, config, text, scope, true));
    }

    /**
     * Plans the query (a planning error is thrown here, before anything runs) and starts it: a
     * producer thread runs the job and forwards the result stage's blocks into the returned stream,
     * in partition order, each as soon as its task has finished (so the first rows reach the client
     * while later result tasks still run) and only as fast as the reader takes them. The query stays
     * listed until its stream ends; the reader closing it early cancels the query.
     */
    ResultStream open(LogicalPlan plan, QueryConfig config, String text, QueryScope scope, boolean collect) {
        ExecutionPlan physical = planning.plan(plan, config);
        ResultStream out = new ResultStream(physical.schema(), config.resultBufferBytes());
        RunningQueries.Handle handle = running.start(text, scope.tag());
        out.onCancel(() -> running.cancel(handle.id(), "its result stream was closed before its end"));
        scope.started(handle.id());
        long maxBytes = collect ? config.resultMaxBytes() : Long.MAX_VALUE;
        QueryEvents.Tracker tracker = events.track(handle.id(), text);
        try {
            resultThreads.execute(() -> {
                Throwable failure = null;
                try {
                    produce(physical, handle, out, maxBytes, tracker);
                } catch (RuntimeException e) {
                    failure = e;
                    out.fail(e);
                } catch (Error e) {
                    failure = e;
                    out.fail(new IllegalStateException("the query's result failed: " + e, e));
                    throw e;
                } finally {
                    tracker.ended(failure, handle.cancelReason());
                    scope.ended(handle.id());
                    handle.close();
                    out.producerStopped();
                }
            });
        } catch (RuntimeException e) {
            scope.ended(handle.id());
            handle.close();
            out.producerStopped();
            throw e;
        }
        return out;
    }

    /**
     * Runs the query's job and forwards its result; a job that fails for a reason other than the
     * user's input runs once more from the start, unless rows were already handed to the reader
     * (they cannot be taken back: then the query fails).
     */
    private void produce(ExecutionPlan physical, RunningQueries.Handle handle, ResultStream out, long maxBytes,
            QueryEvents.Tracker tracker) {
        // split points resolved by the first attempt are bound again, not sampled again, by a second one
        ResolvedSplitPoints splits = new ResolvedSplitPoints();
        for (int attempt = 1; ; attempt++) {
            String jobId = jobs.nextJobId();
            List<Stage> stages = StageCutter.cut(physical, jobId);
            Stage resultStage = stages.get(stages.size() - 1);
            handle.runningAs(jobId);
            tracker.job(jobId, stages, splits);
            ResultTasks tasks = new ResultTasks(resultStage.taskCount());
            CompletableFuture<List<MapStatus>> job = CompletableFuture.supplyAsync(
                    () -> scheduler.run(jobId, stages, splits, handle::cancelReason, tasks::finished), resultThreads);
            job.whenComplete(tasks::jobEnded);
            try {
                forward(jobId, resultStage, tasks, out, maxBytes, handle, tracker);
                return;
            } catch (TaskFailedException e) {
                if (attempt >= JobLifecycle.JOB_ATTEMPTS || e instanceof AttemptsExhaustedException || out.offeredAny()
                        || handle.cancelReason() != null) {
                    throw new SluiceException("query failed: " + e.getMessage(), e);
                }
                LOG.warn("job {} failed ({}); running it again", jobId, e.getMessage());
            } finally {
                stopJob(jobId, job);
                jobs.removeShuffles(stages);
            }
        }
    }

    /**
     * Fetches each result block once its task has finished, in partition order, and hands its
     * batches to the reader (waiting while the stream's buffer is full). {@code maxBytes} is checked
     * on the blocks' stored sizes before each fetch and on the fetched Arrow bytes; over it the query
     * fails and what was fetched and not handed over is freed. Returns early when the reader closed.
     */
    private void forward(String jobId, Stage resultStage, ResultTasks tasks, ResultStream out, long maxBytes,
            RunningQueries.Handle handle, QueryEvents.Tracker tracker) {
        long stored = 0;
        long fetched = 0;
        BooleanSupplier cancelled = () -> handle.cancelReason() != null;
        for (int p = 0; p < resultStage.taskCount(); p++) {
            MapStatus status = tasks.await(p, out::isClosed);
            if (status == null) {
                return;
            }
            checkCancelled(handle);
            stored += status.bytesPerPartition()[0];
            checkResultSize(stored, maxBytes);
            List<Batch> batches = fetcher.fetch(jobId, resultStage.shuffleId(), p, status);
            int handed = 0;
            try {
                while (handed < batches.size()) {
                    Batch batch = batches.get(handed);
                    fetched += ResultStream.sizeOf(batch);
                    checkResultSize(fetched, maxBytes);
                    handed++;
                    tracker.addRows(batch.rowCount());
                    if (!out.offer(batch, cancelled)) {
                        checkCancelled(handle);
                        return;
                    }
                }
            } finally {
                for (int i = handed; i < batches.size(); i++) {
                    batches.get(i).close();
                }
            }
        }
        tasks.awaitJob(out::isClosed);
        out.finish();
    }

    /** A query cancelled after its job finished (its result still being read) stops forwarding. */
    private static void checkCancelled(RunningQueries.Handle handle) {
        String reason = handle.cancelReason();
        if (reason != null) {
            throw new SluiceException("query " + handle.id() + " was cancelled: " + reason);
        }
    }

    /** Cancels the job if it still runs and waits until its thread has left the scheduler. */
    private void stopJob(String jobId, CompletableFuture<List<MapStatus>> job) {
        while (!job.isDone()) {
            scheduler.cancel(jobId, "its result is no longer read");
            try {
                job.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // cancel again: the job may not have been registered yet
            } catch (ExecutionException e) {
                // the job ended by failing: its failure was reported to whoever read it; here it is only stopped
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Reads a whole result stream into one Arrow IPC stream (closing it); the cap was applied as
     * the stream was fetched.
     */
    byte[] collect(ResultStream stream) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (stream; ArrowIpc.Encoder encoder = new ArrowIpc.Encoder(stream.schema(), allocator)) {
            bytes.writeBytes(encoder.start());
            for (Batch next = stream.next(); next != null; next = stream.next()) {
                try (Batch batch = next) {
                    bytes.writeBytes(encoder.write(batch));
                }
            }
            bytes.writeBytes(encoder.end());
        }
        return bytes.toByteArray();
    }

    private static void checkResultSize(long bytes, long maxBytes) {
        if (bytes > maxBytes) {
            throw new SluiceException("the query's result is larger than sluice.result.max-bytes ("
                    + Bytes.format(maxBytes) + "): at least " + Bytes.format(bytes)
                    + "; add a LIMIT, aggregate further, or raise the setting");
        }
    }
}
