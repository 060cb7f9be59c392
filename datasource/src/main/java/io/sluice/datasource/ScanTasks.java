package io.sluice.datasource;

import io.sluice.datasource.file.ScanPartition;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs a scan's partitions into tasks, as Spark packs small files into one split: a task costs its
 * start and the opening of each file, so thousands of small files as one task each spend more on
 * scheduling than on reading. Consecutive partitions on the same hosts share a task while their
 * bytes, each counted with {@value #OPEN_COST_BYTES} bytes for its opening, stay within the task's
 * budget: {@code min(MAX_TASK_BYTES, max(OPEN_COST_BYTES, total / MIN_TASKS))}, so a scan that has
 * {@value #MIN_TASKS} tasks or fewer of partitions keeps one task each and large row groups are
 * never packed. A partition of unknown size is a task of its own. The packing is a pure function
 * of the partitions, so the coordinator and the workers agree on it.
 */
final class ScanTasks {
    /** Spark's default for {@code spark.sql.files.maxPartitionBytes}. */
    static final long MAX_TASK_BYTES = 128L << 20;
    /** Spark's default for {@code spark.sql.files.openCostInBytes}. */
    static final long OPEN_COST_BYTES = 4L << 20;
    /** Packing stops short of leaving fewer tasks than this, so a cluster stays busy. */
    static final int MIN_TASKS = 64;

    private ScanTasks() {
    }

    /**
     * The index in {@code partitions} of each task's first partition, ascending from 0; a task runs
     * its first partition up to the next task's. Empty for no partitions.
     */
    static List<Integer> starts(List<ScanPartition> partitions) {
        List<Integer> starts = new ArrayList<>();
        if (partitions.size() <= MIN_TASKS) {
            for (int i = 0; i < partitions.size(); i++) {
                starts.add(i);
            }
            return starts;
        }
        long total = 0;
        for (ScanPartition p : partitions) {
            total = Math.min(Long.MAX_VALUE / 2, total + cost(p));
        }
        long budget = Math.min(MAX_TASK_BYTES, Math.max(OPEN_COST_BYTES, total / MIN_TASKS));
        long used = 0;
        for (int i = 0; i < partitions.size(); i++) {
            ScanPartition p = partitions.get(i);
            long cost = cost(p);
            boolean fits = !starts.isEmpty() && used + cost <= budget
                    && p.hosts().equals(partitions.get(starts.get(starts.size() - 1)).hosts());
            if (fits) {
                used += cost;
            } else {
                starts.add(i);
                used = cost;
            }
        }
        return starts;
    }

    /** The partition's bytes (a row group counted as its whole file) plus the cost of opening it; unknown counts as a whole budget. */
    private static long cost(ScanPartition p) {
        long bytes = p.isRange() ? p.length() : p.fileLength();
        return bytes < 0 ? MAX_TASK_BYTES : Math.min(bytes, MAX_TASK_BYTES) + OPEN_COST_BYTES;
    }
}
