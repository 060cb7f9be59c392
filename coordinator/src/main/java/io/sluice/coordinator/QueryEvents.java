package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.monitor.EventBus;
import io.sluice.coordinator.monitor.QueryEvent;
import io.sluice.coordinator.scheduler.ResolvedSplitPoints;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.shuffle.stage.Stage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Tells the {@link EventBus} a query's start, each job it runs as, and its end, with its staged
 * plan: while it runs, the plan renders with the operator numbers of its finished tasks (EXPLAIN
 * ANALYZE's form, from {@link JobMetrics}); at its end, the final numbers are part of the
 * {@link QueryEvent.QueryEnded} event, so an event log keeps them.
 */
final class QueryEvents {
    private final EventBus bus;
    private final JobMetrics operatorMetrics;

    QueryEvents(EventBus bus, JobMetrics operatorMetrics) {
        this.bus = requireNonNull(bus, "bus is null");
        this.operatorMetrics = requireNonNull(operatorMetrics, "operatorMetrics is null");
    }

    /** Tracks one query ({@code text} as the client sent it); call {@link Tracker#job} for each job, then {@link Tracker#ended}. */
    Tracker track(String queryId, String text) {
        return new Tracker(queryId, text);
    }

    /** One query's events; used by the one thread that runs the query. */
    final class Tracker {
        private final String queryId;
        private final String text;
        private final long startMillis = System.currentTimeMillis();
        private final long startNanos = System.nanoTime();
        private volatile long rows;
        // read by a REST request rendering the live plan
        private volatile String jobId;
        private volatile List<Stage> stages;
        private volatile ResolvedSplitPoints splits;

        private Tracker(String queryId, String text) {
            this.queryId = queryId;
            this.text = text;
        }

        /** The query runs (again) as {@code job}: its first job is the query's start. */
        void job(String job, List<Stage> jobStages, ResolvedSplitPoints jobSplits) {
            if (jobId != null) {
                operatorMetrics.take(jobId);
            }
            boolean first = jobId == null;
            jobId = job;
            stages = jobStages;
            splits = jobSplits;
            operatorMetrics.watch(job);
            if (first) {
                bus.post(new QueryEvent.QueryStarted(queryId, job, text, plan(Map.of(), job), stageInfos(jobStages),
                        startMillis, () -> plan(operatorMetrics.peek(job), job)));
            } else {
                bus.post(new QueryEvent.JobStarted(queryId, job, System.currentTimeMillis()));
            }
        }

        /** Rows handed to the query's reader. */
        void addRows(long n) {
            rows += n;
        }

        /** The query ended: with {@code error} null it finished, else it failed, or was cancelled when {@code cancelReason} is set. */
        void ended(Throwable error, String cancelReason) {
            String plan = null;
            if (jobId != null) {
                plan = plan(operatorMetrics.take(jobId), jobId);
            }
            String state = cancelReason != null ? "CANCELLED" : error == null ? "FINISHED" : "FAILED";
            String message = cancelReason != null ? "cancelled: " + cancelReason
                    : error == null ? null : String.valueOf(error.getMessage());
            bus.post(new QueryEvent.QueryEnded(queryId, state, error == null && cancelReason == null ? rows : null, message,
                    plan, System.currentTimeMillis()));
        }

        private String plan(Map<Integer, List<io.sluice.operators.OperatorMetrics>> metrics, String job) {
            List<Stage> current = stages;
            return current == null || !job.equals(jobId) ? null
                    : AnalyzedPlanText.render(current, metrics, splits.all(), rows, System.nanoTime() - startNanos);
        }
    }

    /** The stages as the monitoring API shows them: operators bottom-up (the shuffle writer last), parents, tasks, exchange. */
    static List<QueryEvent.StageInfo> stageInfos(List<Stage> stages) {
        List<QueryEvent.StageInfo> out = new ArrayList<>();
        for (Stage stage : stages) {
            List<String> operators = new ArrayList<>();
            preOrder(stage.plan(), operators);
            Collections.reverse(operators);
            out.add(new QueryEvent.StageInfo(stage.id(), operators, stage.parents(), stage.taskCount(),
                    exchange(stage.plan().outputPartitioning())));
        }
        return out;
    }

    private static void preOrder(ExecutionPlan plan, List<String> out) {
        out.add(plan.describe());
        plan.children().forEach(child -> preOrder(child, out));
    }

    private static String exchange(Partitioning partitioning) {
        if (partitioning instanceof Partitioning.Hash) {
            return "hash";
        }
        if (partitioning instanceof Partitioning.Range) {
            return "range";
        }
        if (partitioning instanceof Partitioning.Broadcast) {
            return "broadcast";
        }
        if (partitioning instanceof Partitioning.RoundRobin) {
            return "roundrobin";
        }
        return "single";
    }
}
