package io.sluice.coordinator;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Col;
import io.sluice.kernels.ValueFormat;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.OperatorMetrics;
import io.sluice.operators.Partitioning;
import io.sluice.operators.RangeBoundaries;
import io.sluice.shuffle.ShuffleReaderExec;
import io.sluice.shuffle.stage.Stage;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * EXPLAIN ANALYZE text: each stage's plan with, per operator, the planner's estimated rows
 * ({@code est_rows}) next to its output rows, batches and own
 * time summed over the stage's tasks, and the min / median / max over tasks of rows and time;
 * then, for operators that reserved memory, the largest peak of one task ({@code peak_mem}), and
 * for operators that spilled, bytes written, spill count and spill time summed over tasks; for a
 * broadcast hash join, the hash tables its tasks built ({@code builds}: at most one per worker when
 * the tasks of a stage share the build, see {@code SharedBuildCache}).
 */
final class AnalyzedPlanText {
    private AnalyzedPlanText() {
    }

    static String render(List<Stage> stages, Map<Integer, List<OperatorMetrics>> metrics,
            Map<String, List<List<Object>>> splits, long resultRows, long elapsedNanos) {
        StringBuilder out = new StringBuilder();
        out.append("Query: ").append(resultRows).append(" rows in ").append(millis(elapsedNanos)).append(System.lineSeparator());
        for (Stage s : stages) {
            List<OperatorMetrics> tasks = metrics.getOrDefault(s.id(), List.of());
            out.append("Stage ").append(s.id()).append(" (").append(s.taskCount()).append(" tasks")
                    .append(s.id() == stages.size() - 1 ? ", result" : "").append(")\n");
            out.append("  ").append(s.plan().describe()).append('\n');
            append(s.plan().input(), 2, new int[] {0}, tasks, splits, out);
        }
        return out.toString();
    }

    /** Operators in pre-order, as the worker numbered them ({@code MeasuredExec.measure}). */
    private static void append(ExecutionPlan plan, int depth, int[] next, List<OperatorMetrics> tasks,
            Map<String, List<List<Object>>> splits, StringBuilder out) {
        int index = next[0]++;
        out.append("  ".repeat(depth)).append(plan.describe()).append("  ").append(summary(index, plan.estimatedRows(), tasks))
                .append('\n');
        if (plan instanceof ShuffleReaderExec reader && reader.partitioning() instanceof Partitioning.Range range) {
            appendRange(range, reader.schema(), index, tasks, splits, depth + 1, out);
        }
        for (ExecutionPlan child : plan.children()) {
            append(child, depth + 1, next, tasks, splits, out);
        }
    }

    /**
     * Under a reader of a range shuffle: the split points' resolved boundaries and the rows each
     * partition received (the reader's output rows in the task of that partition).
     */
    private static void appendRange(Partitioning.Range range, Schema schema, int operator, List<OperatorMetrics> tasks,
            Map<String, List<List<Object>>> splits, int depth, StringBuilder out) {
        String id = range.splits().id();
        List<List<Object>> boundaries = splits.get(id);
        out.append("  ".repeat(depth)).append("split points ").append(id).append(": ")
                .append(boundaries == null ? "not resolved" : boundaries.size() + " boundaries " + format(boundaries, range, schema))
                .append('\n');
        long[] rows = new long[tasks.size()];
        for (int t = 0; t < rows.length; t++) {
            rows[t] = tasks.get(t).rows()[operator];
        }
        out.append("  ".repeat(depth)).append("rows per partition: ").append(Arrays.toString(rows)).append('\n');
    }

    /** Boundary rows as the values a query prints (dates as dates, decimals with their scale). */
    private static String format(List<List<Object>> boundaries, Partitioning.Range range, Schema schema) {
        DataType[] types = new DataType[range.keys().size()];
        for (int k = 0; k < types.length; k++) {
            types[k] = range.keys().get(k).expr().type(schema);
        }
        Col[] columns = RangeBoundaries.toColumns(boundaries, types);
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < boundaries.size(); i++) {
            out.append(i == 0 ? "[" : ", [");
            for (int k = 0; k < columns.length; k++) {
                out.append(k == 0 ? "" : ", ").append(columns[k].isNull(i) ? "NULL" : ValueFormat.format(columns[k], i));
            }
            out.append(']');
        }
        return out.append(']').toString();
    }

    /** The planner's estimate ({@code est_rows}, {@code ?} when none) and what the tasks counted. */
    private static String summary(int operator, long estimatedRows, List<OperatorMetrics> tasks) {
        String estimate = "est_rows=" + (estimatedRows == ExecutionPlan.UNKNOWN_ROWS ? "?" : Long.toString(estimatedRows));
        int n = tasks.size();
        if (n == 0) {
            return "[" + estimate + " no task reported]";
        }
        long[] rows = new long[n];
        long[] nanos = new long[n];
        long batches = 0;
        long peak = 0;
        long spilled = 0;
        long spills = 0;
        long spillNanos = 0;
        long builds = 0;
        long files = 0;
        long skipped = 0;
        for (int t = 0; t < n; t++) {
            OperatorMetrics m = tasks.get(t);
            rows[t] = m.rows()[operator];
            nanos[t] = m.nanos()[operator];
            batches += m.batches()[operator];
            peak = Math.max(peak, m.peakMemory()[operator]);
            spilled += m.spilledBytes()[operator];
            spills += m.spills()[operator];
            spillNanos += m.spillNanos()[operator];
            builds += m.builds()[operator];
            files += m.filesOpened()[operator];
            skipped += m.rowsSkipped()[operator];
        }
        String memory = peak == 0 ? "" : " peak_mem=" + io.sluice.operators.memory.Bytes.format(peak);
        String spilling = spills == 0 ? "" : String.format(Locale.ROOT, " spilled=%s spills=%d spill_time=%s",
                io.sluice.operators.memory.Bytes.format(spilled), spills, millis(spillNanos));
        String built = builds == 0 ? "" : " builds=" + builds;
        String opened = (files == 0 ? "" : " files_opened=" + files)
                + (skipped == 0 ? "" : " rows_read=" + (Arrays.stream(rows).sum() + skipped) + " rows_skipped=" + skipped);
        // concatenation, not String.format: this renders every operator of every query as it ends
        return "[" + estimate + " rows=" + Arrays.stream(rows).sum() + " batches=" + batches + " time="
                + millis(Arrays.stream(nanos).sum()) + memory + spilling + built + opened + " | per task (" + n + "): rows "
                + spread(rows, false) + ", time " + spread(nanos, true) + "]";
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

    /** Milliseconds with two decimals, rounded half up ({@code 1.25ms}), as {@code %.2fms} prints them but without a formatter. */
    static String millis(long nanos) {
        long hundredths = Math.round(Math.abs(nanos) / 1e4);
        long fraction = hundredths % 100;
        return (nanos < 0 && hundredths != 0 ? "-" : "") + hundredths / 100 + (fraction < 10 ? ".0" : ".") + fraction + "ms";
    }
}
