package io.sluice.coordinator.monitor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.function.Supplier;

/**
 * What happened to a query, as the coordinator tells its listeners (Spark-listener style): one
 * immutable record per change, in the order the coordinator saw them. Times are epoch
 * milliseconds. Stage and task events name the scheduler job they belong to; a query whose job
 * is run again (after a lost worker) is told {@link JobStarted} for the new job, and its stage
 * and task events then carry that job's id. The JSON form (the event log) names each record in
 * an {@code "event"} field.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "event")
@JsonSubTypes({
        @JsonSubTypes.Type(value = QueryEvent.QueryStarted.class, name = "QueryStarted"),
        @JsonSubTypes.Type(value = QueryEvent.JobStarted.class, name = "JobStarted"),
        @JsonSubTypes.Type(value = QueryEvent.StageSubmitted.class, name = "StageSubmitted"),
        @JsonSubTypes.Type(value = QueryEvent.StageCompleted.class, name = "StageCompleted"),
        @JsonSubTypes.Type(value = QueryEvent.TaskStarted.class, name = "TaskStarted"),
        @JsonSubTypes.Type(value = QueryEvent.TaskEnded.class, name = "TaskEnded"),
        @JsonSubTypes.Type(value = QueryEvent.QueryEnded.class, name = "QueryEnded")})
public sealed interface QueryEvent {
    long time();

    /** An event about one stage of a job: a stage's submission or completion, a task attempt's start or end. */
    sealed interface OfStage extends QueryEvent {
        String jobId();

        int stageId();
    }

    /**
     * One stage of a query's plan: its operators top-down (pre-order, as EXPLAIN ANALYZE numbers
     * them), the stages it reads, its task count and how its output is exchanged ({@code hash},
     * {@code range}, {@code broadcast}, {@code single} or {@code roundrobin}).
     */
    record StageInfo(int id, List<String> operators, List<Integer> parents, int tasks, String exchange) {
        public StageInfo {
            operators = List.copyOf(operators);
            parents = List.copyOf(parents);
            requireNonNull(exchange, "exchange is null");
        }
    }

    /**
     * A query started running as {@code jobId}. {@code plan} is its staged physical plan as text;
     * {@code live}, never written to a log, renders that plan with the operator numbers known so
     * far (null when replayed from a log).
     */
    record QueryStarted(String queryId, String jobId, String sql, String plan, List<StageInfo> stages, long time,
            @JsonIgnore Supplier<String> live) implements QueryEvent {
        public QueryStarted {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(jobId, "jobId is null");
            stages = List.copyOf(stages);
        }
    }

    /** The query runs again, from the start, as a new job (its earlier job failed for a reason it may not meet again). */
    record JobStarted(String queryId, String jobId, long time) implements QueryEvent {
    }

    /** A stage's tasks for these partitions were handed out: a first run, or a re-run of lost outputs. */
    record StageSubmitted(String jobId, int stageId, List<Integer> partitions, long time) implements OfStage {
        public StageSubmitted {
            partitions = List.copyOf(partitions);
        }
    }

    /** Every task of the stage's current submission finished. */
    record StageCompleted(String jobId, int stageId, long time) implements OfStage {
    }

    /** An attempt of a task started on a worker. */
    record TaskStarted(String jobId, int stageId, int partition, int attempt, String worker, long time)
            implements OfStage {
    }

    /**
     * An attempt ended: {@code FINISHED}, {@code FAILED} (with its error) or {@code KILLED}
     * (cancelled, or given up on). {@code metrics} is null when the worker sent none;
     * {@code fetchFailed} tells a failure to read a lost map output (its stage's input is recomputed).
     */
    record TaskEnded(String jobId, int stageId, int partition, int attempt, String worker, String state,
            TaskNumbers metrics, String error, boolean fetchFailed, long time) implements OfStage {
        public TaskEnded {
            requireNonNull(state, "state is null");
        }
    }

    /**
     * What one attempt did: rows and bytes it wrote (its stage's output), rows and bytes it read
     * from shuffles, the time it waited for remote shuffle bytes, the bytes it spilled, the JVM's
     * garbage collection time while it ran (on a worker running several tasks, shared by them),
     * and its wall time.
     */
    record TaskNumbers(long rows, long bytesWritten, long rowsRead, long bytesRead, long shuffleFetchWaitMs,
            long spillBytes, long gcTimeMs, long durationMs) {
    }

    /** The query ended: {@code FINISHED}, {@code FAILED} or {@code CANCELLED}; {@code plan} with each operator's numbers. */
    record QueryEnded(String queryId, String state, Long rows, String error, String plan, long time)
            implements QueryEvent {
        public QueryEnded {
            requireNonNull(queryId, "queryId is null");
            requireNonNull(state, "state is null");
        }
    }
}
