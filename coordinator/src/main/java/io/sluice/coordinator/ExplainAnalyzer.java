package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.scheduler.BlockFetcher;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.coordinator.scheduler.ResolvedSplitPoints;
import io.sluice.coordinator.scheduler.TaskFailedException;
import io.sluice.kernels.Batch;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.MapStatus;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.shuffle.stage.Stage;
import io.sluice.shuffle.stage.StageCutter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@code EXPLAIN ANALYZE}: runs the query once and renders its staged plan with what each operator did. */
final class ExplainAnalyzer {
    private final PlanningPipeline planning;
    private final DagScheduler scheduler;
    private final BlockFetcher fetcher;
    private final JobLifecycle jobs;
    private final JobMetrics jobMetrics;

    ExplainAnalyzer(PlanningPipeline planning, DagScheduler scheduler, BlockFetcher fetcher, JobLifecycle jobs,
            JobMetrics jobMetrics) {
        this.planning = requireNonNull(planning, "planning is null");
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        this.fetcher = requireNonNull(fetcher, "fetcher is null");
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.jobMetrics = requireNonNull(jobMetrics, "jobMetrics is null");
    }

    /**
     * Runs the query once (no retry: the numbers describe one run) and returns its staged plan with
     * each operator's rows, batches and time over the tasks; the result rows are counted, not kept.
     */
    String explainAnalyze(LogicalPlan plan, QueryConfig config) {
        ExecutionPlan physical = planning.plan(plan, config);
        String jobId = jobs.nextJobId();
        List<Stage> stages = StageCutter.cut(physical, jobId);
        jobMetrics.watch(jobId);
        long start = System.nanoTime();
        ResolvedSplitPoints splits = new ResolvedSplitPoints();
        // the plans as the tasks ran them: split points and runtime filters bound
        Map<Integer, ShuffleWriterExec> executed = new ConcurrentHashMap<>();
        DagScheduler.StageListener submitted = new DagScheduler.StageListener() {
            @Override
            public void stageCompleted(String job, int stageId) {
            }

            @Override
            public void stageSubmitted(String job, int stageId, ShuffleWriterExec plan, List<Integer> partitions) {
                if (job.equals(jobId) && stageId < DagScheduler.SAMPLE_STAGE_OFFSET) {
                    executed.putIfAbsent(stageId, plan);
                }
            }
        };
        scheduler.addListener(submitted);
        try {
            List<MapStatus> result = scheduler.run(jobId, stages, splits);
            long rows = 0;
            List<Batch> batches = fetcher.fetchAll(jobId, stages.get(stages.size() - 1).shuffleId(), result);
            for (Batch b : batches) {
                rows += b.rowCount();
                b.close();
            }
            long elapsed = System.nanoTime() - start;
            List<Stage> ran = stages.stream().map(st -> executed.containsKey(st.id())
                    ? new Stage(st.id(), st.shuffleId(), executed.get(st.id()), st.parents()) : st).toList();
            return AnalyzedPlanText.render(ran, jobMetrics.take(jobId), splits.all(), rows, elapsed);
        } catch (TaskFailedException e) {
            throw new SluiceException("query failed: " + e.getMessage(), e);
        } finally {
            scheduler.removeListener(submitted);
            jobMetrics.take(jobId);
            jobs.removeShuffles(stages);
        }
    }
}
