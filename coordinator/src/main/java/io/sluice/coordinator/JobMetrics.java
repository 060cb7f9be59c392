package io.sluice.coordinator;

import io.sluice.operators.OperatorMetrics;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Task metrics of the jobs someone watches (EXPLAIN ANALYZE, and each query's plan in the monitoring API): per stage, the latest report of
 * each partition, so a task re-run after a lost output replaces its first run. Reports of jobs
 * nobody watches are dropped.
 */
final class JobMetrics {
    private final Map<String, Map<Integer, Map<Integer, OperatorMetrics>>> watched = new ConcurrentHashMap<>();

    void watch(String jobId) {
        watched.put(jobId, new ConcurrentHashMap<>());
    }

    void record(String jobId, int stageId, int partition, OperatorMetrics metrics) {
        Map<Integer, Map<Integer, OperatorMetrics>> stages = watched.get(jobId);
        if (stages != null && metrics != null) {
            stages.computeIfAbsent(stageId, s -> new ConcurrentHashMap<>()).put(partition, metrics);
        }
    }

    /** The reports of a watched job so far, by stage id, each stage's in partition order (empty if not watched). */
    Map<Integer, List<OperatorMetrics>> peek(String jobId) {
        return byStage(watched.get(jobId));
    }

    /** Stops watching the job; its reports by stage id, each stage's in partition order. */
    Map<Integer, List<OperatorMetrics>> take(String jobId) {
        return byStage(watched.remove(jobId));
    }

    private static Map<Integer, List<OperatorMetrics>> byStage(Map<Integer, Map<Integer, OperatorMetrics>> stages) {
        Map<Integer, List<OperatorMetrics>> out = new TreeMap<>();
        if (stages != null) {
            stages.forEach((stage, byPartition) -> out.put(stage, List.copyOf(new TreeMap<>(byPartition).values())));
        }
        return out;
    }
}
