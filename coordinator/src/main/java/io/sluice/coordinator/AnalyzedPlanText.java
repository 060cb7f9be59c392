package io.sluice.coordinator;

import io.sluice.coordinator.scheduler.Stage;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.OperatorMetrics;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * EXPLAIN ANALYZE text: each stage's plan with, per operator, its output rows, batches and own
 * time summed over the stage's tasks, and the min / median / max over tasks of rows and time;
 * then, for operators that reserved memory, the largest peak of one task ({@code peak_mem}), and
 * for operators that spilled, bytes written, spill count and spill time summed over tasks.
 */
final class AnalyzedPlanText {
    private AnalyzedPlanText() {
    }

    static String render(List<Stage> stages, Map<Integer, List<OperatorMetrics>> metrics, long resultRows, long elapsedNanos) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Query: %d rows in %s%n", resultRows, millis(elapsedNanos)));
        for (Stage s : stages) {
            List<OperatorMetrics> tasks = metrics.getOrDefault(s.id(), List.of());
            out.append("Stage ").append(s.id()).append(" (").append(s.taskCount()).append(" tasks")
                    .append(s.id() == stages.size() - 1 ? ", result" : "").append(")\n");
            out.append("  ").append(s.plan().describe()).append('\n');
            append(s.plan().input(), 2, new int[] {0}, tasks, out);
        }
        return out.toString();
    }

    /** Operators in pre-order, as the worker numbered them ({@code MeasuredExec.measure}). */
    private static void append(ExecutionPlan plan, int depth, int[] next, List<OperatorMetrics> tasks, StringBuilder out) {
        int index = next[0]++;
        out.append("  ".repeat(depth)).append(plan.describe()).append("  ").append(summary(index, tasks)).append('\n');
        for (ExecutionPlan child : plan.children()) {
            append(child, depth + 1, next, tasks, out);
        }
    }

    private static String summary(int operator, List<OperatorMetrics> tasks) {
        int n = tasks.size();
        if (n == 0) {
            return "[no task reported]";
        }
        long[] rows = new long[n];
        long[] nanos = new long[n];
        long batches = 0;
        long peak = 0;
        long spilled = 0;
        long spills = 0;
        long spillNanos = 0;
        for (int t = 0; t < n; t++) {
            OperatorMetrics m = tasks.get(t);
            rows[t] = m.rows()[operator];
            nanos[t] = m.nanos()[operator];
            batches += m.batches()[operator];
            peak = Math.max(peak, m.peakMemory()[operator]);
            spilled += m.spilledBytes()[operator];
            spills += m.spills()[operator];
            spillNanos += m.spillNanos()[operator];
        }
        String memory = peak == 0 ? "" : " peak_mem=" + io.sluice.plan.memory.Bytes.format(peak);
        String spilling = spills == 0 ? "" : String.format(Locale.ROOT, " spilled=%s spills=%d spill_time=%s",
                io.sluice.plan.memory.Bytes.format(spilled), spills, millis(spillNanos));
        return String.format(Locale.ROOT, "[rows=%d batches=%d time=%s%s%s | per task (%d): rows %s, time %s]",
                Arrays.stream(rows).sum(), batches, millis(Arrays.stream(nanos).sum()), memory, spilling, n,
                spread(rows, false), spread(nanos, true));
    }

    /** min / median / max. */
    private static String spread(long[] values, boolean time) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        long min = sorted[0];
        long median = sorted[sorted.length / 2];
        long max = sorted[sorted.length - 1];
        return time ? millis(min) + "/" + millis(median) + "/" + millis(max) : min + "/" + median + "/" + max;
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2fms", nanos / 1e6);
    }
}
