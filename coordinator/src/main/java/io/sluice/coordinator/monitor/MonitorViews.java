package io.sluice.coordinator.monitor;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The REST API's answers (docs/monitoring.md): immutable snapshots, field names as the JSON
 * shows them; an unknown value is a JSON null, never an omitted field.
 */
public final class MonitorViews {
    private MonitorViews() {
    }

    /** One query in {@code GET /api/v1/queries}. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"id", "sql", "state", "startTime", "endTime", "durationMs", "rows", "error"})
    public record QuerySummary(String id, String sql, String state, long startTime, Long endTime, long durationMs,
            Long rows, String error) {
    }

    /** {@code GET /api/v1/queries/{id}}: the summary's fields, the plan, the stages and the exchanges between them. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"id", "sql", "state", "startTime", "endTime", "durationMs", "rows", "error", "plan", "stages",
            "exchanges"})
    public record QueryDetail(String id, String sql, String state, long startTime, Long endTime, long durationMs,
            Long rows, String error, String plan, List<StageView> stages, List<ExchangeView> exchanges) {
        public QuerySummary summary() {
            return new QuerySummary(id, sql, state, startTime, endTime, durationMs, rows, error);
        }
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"id", "state", "operators", "parents", "tasks", "tasksCompleted", "tasksFailed", "tasksRunning",
            "rows", "bytes", "inputRows", "spillBytes", "startTime", "endTime"})
    public record StageView(int id, String state, List<String> operators, List<Integer> parents, int tasks,
            int tasksCompleted, int tasksFailed, int tasksRunning, long rows, long bytes, Long inputRows,
            long spillBytes, Long startTime, Long endTime) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"fromStage", "toStage", "rows", "bytes", "kind"})
    public record ExchangeView(int fromStage, int toStage, long rows, long bytes, String kind) {
    }

    /** One attempt in {@code GET /api/v1/queries/{id}/stages/{stageId}/tasks}. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"partition", "attempt", "worker", "state", "launchTime", "endTime", "durationMs", "rows",
            "bytesRead", "bytesWritten", "shuffleFetchWaitMs", "spillBytes", "gcTimeMs", "error"})
    public record TaskView(int partition, int attempt, String worker, String state, long launchTime, Long endTime,
            long durationMs, long rows, long bytesRead, long bytesWritten, long shuffleFetchWaitMs, long spillBytes,
            long gcTimeMs, String error) {
    }

    /** One worker in {@code GET /api/v1/workers}. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"id", "address", "slots", "busySlots", "memoryUsedBytes", "memoryLimitBytes",
            "shuffleBytesHeld", "state", "lastHeartbeat"})
    public record WorkerView(String id, String address, int slots, int busySlots, Long memoryUsedBytes,
            Long memoryLimitBytes, Long shuffleBytesHeld, String state, Long lastHeartbeat) {
    }
}
