package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.scheduler.AttemptsExhaustedException;
import io.sluice.coordinator.scheduler.BlockFetcher;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.coordinator.scheduler.ResolvedSplitPoints;
import io.sluice.coordinator.scheduler.TaskFailedException;
import io.sluice.datasource.FileAccessPolicy;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.sink.CommitProtocol;
import io.sluice.datasource.sink.FileWriteExec;
import io.sluice.kernels.Batch;
import io.sluice.kernels.VectorReader;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.MapStatus;
import io.sluice.shuffle.stage.Stage;
import io.sluice.shuffle.stage.StageCutter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a query's result as files at a {@link WriteTarget} under its {@link CommitProtocol}:
 * every partition of the query's last stage is written by one task into its attempt directory;
 * once the job succeeded, the attempts whose results arrived are committed; a failed job (after
 * its tasks stopped) is aborted, leaving the target as it was.
 */
final class WriteCommitter {
    private static final Logger LOG = LoggerFactory.getLogger(WriteCommitter.class);

    private final PlanningPipeline planning;
    private final DagScheduler scheduler;
    private final BlockFetcher fetcher;
    private final JobLifecycle jobs;
    private final RunningQueries running;
    private final FileAccessPolicy fileAccess;
    private final Consumer<String> awaitJobTasksEnded;

    /**
     * {@code awaitJobTasksEnded} returns once no task of the given (failed) job runs any more, so
     * that a failed write's files are removed only after its cancelled tasks stopped writing.
     */
    WriteCommitter(PlanningPipeline planning, DagScheduler scheduler, BlockFetcher fetcher, JobLifecycle jobs,
            RunningQueries running, FileAccessPolicy fileAccess, Consumer<String> awaitJobTasksEnded) {
        this.planning = requireNonNull(planning, "planning is null");
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        this.fetcher = requireNonNull(fetcher, "fetcher is null");
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.running = requireNonNull(running, "running is null");
        this.fileAccess = requireNonNull(fileAccess, "fileAccess is null");
        this.awaitJobTasksEnded = requireNonNull(awaitJobTasksEnded, "awaitJobTasksEnded is null");
    }

    /** Writes the query's result, listed as one running query ({@code text}) told to {@code scope}; the rows written. */
    long write(LogicalPlan plan, WriteTarget target, QueryConfig config, String text, QueryScope scope) {
        return tracked(text, scope, handle -> write(plan, target, config, handle));
    }

    /**
     * Runs {@code work} as one listed query ({@link RunningQueries}), its id told to {@code scope} while
     * it runs; the handle tells the work's jobs whether the query was cancelled.
     */
    private <T> T tracked(String text, QueryScope scope, Function<RunningQueries.Handle, T> work) {
        try (RunningQueries.Handle handle = running.start(text, scope.tag())) {
            scope.started(handle.id());
            try {
                return work.apply(handle);
            } finally {
                scope.ended(handle.id());
            }
        }
    }

    /**
     * The query is planned with the session's Hadoop overrides only (each of its sources adds its
     * own); the target's are in force from there on: its checks, its tasks' writes and its commit.
     */
    private long write(LogicalPlan plan, WriteTarget requested, QueryConfig config, RunningQueries.Handle handle) {
        WriteTarget target = requested.withLocation(fileAccess.check(requested.location()).text());
        FileWriteExec.checkWritable(plan.schema());
        ExecutionPlan input = planning.plan(plan, config);
        return HadoopConfiguration.withSourceOverrides(target.hadoop(),
                () -> commit(FileWriteExec.create(input, target), target, handle));
    }

    private long commit(ExecutionPlan physical, WriteTarget target, RunningQueries.Handle handle) {
        CommitProtocol protocol = CommitProtocol.of(target);
        boolean existed = protocol.setup();
        ResolvedSplitPoints splits = new ResolvedSplitPoints();
        for (int attempt = 1; ; attempt++) {
            if (attempt > 1) {
                protocol.setup(); // the abort removed what setup made (an object store's manifest)
            }
            String jobId = jobs.nextJobId();
            List<Stage> stages = StageCutter.cut(physical, jobId);
            boolean committed = false;
            handle.runningAs(jobId);
            try {
                List<MapStatus> result = scheduler.run(jobId, stages, splits, handle::cancelReason);
                List<String> attemptDirs = new ArrayList<>();
                long rows = 0;
                List<Batch> batches = fetcher.fetchAll(jobId, stages.get(stages.size() - 1).shuffleId(), result);
                try {
                    for (Batch b : batches) {
                        VectorReader dirs = VectorReader.of(b, 0);
                        VectorReader counts = VectorReader.of(b, 1);
                        for (int r = 0; r < b.rowCount(); r++) {
                            attemptDirs.add(dirs.stringAt(r));
                            rows += counts.longAt(r);
                        }
                    }
                } finally {
                    batches.forEach(Batch::close);
                }
                protocol.commit(jobId, attemptDirs);
                committed = true;
                LOG.info("job {} wrote {} rows in {} files to {}", jobId, rows, attemptDirs.size(), target.location());
                return rows;
            } catch (TaskFailedException e) {
                if (attempt >= JobLifecycle.JOB_ATTEMPTS || e instanceof AttemptsExhaustedException) {
                    throw new SluiceException("write to '" + target.location() + "' failed: " + e.getMessage(), e);
                }
                LOG.warn("job {} failed ({}); running it again", jobId, e.getMessage());
            } finally {
                if (!committed) {
                    abortQuietly(protocol, jobId, existed);
                }
                jobs.removeShuffles(stages);
            }
        }
    }

    /** Removes a failed write's files once its tasks stopped; a failure here is logged, not thrown over the job's. */
    private void abortQuietly(CommitProtocol protocol, String jobId, boolean existed) {
        try {
            awaitJobTasksEnded.accept(jobId);
            protocol.abort(jobId, existed);
        } catch (RuntimeException e) {
            LOG.warn("job {}: could not remove its unfinished files at {}: {}", jobId, protocol.target().location(), e.getMessage());
        }
    }
}
