package io.sluice.coordinator.monitor;

import io.sluice.coordinator.monitor.MonitorViews.ExchangeView;
import io.sluice.coordinator.monitor.MonitorViews.QueryDetail;
import io.sluice.coordinator.monitor.MonitorViews.QuerySummary;
import io.sluice.coordinator.monitor.MonitorViews.StageView;
import io.sluice.coordinator.monitor.MonitorViews.TaskView;
import io.sluice.coordinator.monitor.QueryEvent.JobStarted;
import io.sluice.coordinator.monitor.QueryEvent.QueryEnded;
import io.sluice.coordinator.monitor.QueryEvent.QueryStarted;
import io.sluice.coordinator.monitor.QueryEvent.StageCompleted;
import io.sluice.coordinator.monitor.QueryEvent.StageInfo;
import io.sluice.coordinator.monitor.QueryEvent.StageSubmitted;
import io.sluice.coordinator.monitor.QueryEvent.TaskEnded;
import io.sluice.coordinator.monitor.QueryEvent.TaskStarted;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The queries, their stages and their tasks' attempts, built by applying {@link QueryEvent}s, fed
 * live by the {@link EventBus} or by replaying event logs ({@link EventLogReader}); the REST API
 * reads snapshots of it. Bounded: running queries are all kept, finished ones only the last
 * {@code maxFinished} (the oldest finished is forgotten first). Events of jobs it does not know
 * (an EXPLAIN ANALYZE's, or a query forgotten already) are ignored. Thread-safe: one lock, held
 * briefly by the applying thread and by readers.
 */
public final class QueryStore implements EventListener {
    private final int maxFinished;
    private final LongSupplier clock;
    /** Queries by id, in start order. */
    private final LinkedHashMap<String, QueryRecord> queries = new LinkedHashMap<>();
    private final Map<String, QueryRecord> byJob = new HashMap<>();
    private int finished;

    public QueryStore(int maxFinished) {
        this(maxFinished, System::currentTimeMillis);
    }

    QueryStore(int maxFinished, LongSupplier clock) {
        if (maxFinished < 1) {
            throw new IllegalArgumentException("maxFinished must be at least 1: " + maxFinished);
        }
        this.maxFinished = maxFinished;
        this.clock = clock;
    }

    @Override
    public synchronized void onEvent(QueryEvent event) {
        if (event instanceof QueryStarted started) {
            QueryRecord query = new QueryRecord(started);
            QueryRecord old = queries.remove(started.queryId());
            if (old != null) {
                forget(old);
            }
            queries.put(started.queryId(), query);
            byJob.put(started.jobId(), query);
            return;
        }
        if (event instanceof JobStarted job) {
            QueryRecord query = queries.get(job.queryId());
            if (query != null) {
                query.restart(job.jobId());
                byJob.put(job.jobId(), query);
            }
            return;
        }
        if (event instanceof QueryEnded ended) {
            QueryRecord query = queries.get(ended.queryId());
            if (query != null && query.end == null) {
                query.end(ended);
                finished++;
                evict();
            }
            return;
        }
        if (!(event instanceof QueryEvent.OfStage ofStage)) {
            return;
        }
        QueryRecord query = byJob.get(ofStage.jobId());
        StageRecord stage = query == null ? null : query.stages.get(ofStage.stageId());
        if (stage != null && query.jobId.equals(ofStage.jobId())) {
            stage.apply(event);
        }
    }

    private void evict() {
        for (Iterator<QueryRecord> it = queries.values().iterator(); it.hasNext() && finished > maxFinished; ) {
            QueryRecord query = it.next();
            if (query.end != null) {
                it.remove();
                forget(query);
            }
        }
    }

    private void forget(QueryRecord query) {
        byJob.values().removeIf(q -> q == query);
        if (query.end != null) {
            finished--;
        }
    }

    /** Every query kept, newest first. */
    public synchronized List<QuerySummary> list() {
        List<QuerySummary> out = new ArrayList<>();
        long now = clock.getAsLong();
        queries.values().forEach(q -> out.add(q.summary(now)));
        out.sort((a, b) -> Long.compare(b.startTime(), a.startTime()));
        return out;
    }

    public synchronized Optional<QueryDetail> query(String id) {
        QueryRecord query = queries.get(id);
        return query == null ? Optional.empty() : Optional.of(query.detail(clock.getAsLong()));
    }

    /** Every attempt of the stage's tasks (of the query's current job), in launch order; empty when no such stage. */
    public synchronized Optional<List<TaskView>> tasks(String queryId, int stageId) {
        QueryRecord query = queries.get(queryId);
        StageRecord stage = query == null ? null : query.stages.get(stageId);
        if (stage == null) {
            return Optional.empty();
        }
        long now = clock.getAsLong();
        List<TaskView> out = new ArrayList<>();
        stage.attempts.forEach(a -> out.add(a.view(now)));
        return Optional.of(out);
    }

    /** One query, as its events made it. Guarded by the store's lock. */
    private static final class QueryRecord {
        final QueryStarted start;
        final Map<Integer, StageRecord> stages = new LinkedHashMap<>();
        String jobId;
        QueryEnded end;

        QueryRecord(QueryStarted start) {
            this.start = start;
            this.jobId = start.jobId();
            start.stages().forEach(s -> stages.put(s.id(), new StageRecord(s)));
        }

        void restart(String job) {
            jobId = job;
            stages.replaceAll((id, s) -> new StageRecord(s.info));
        }

        void end(QueryEnded ended) {
            end = ended;
            for (StageRecord stage : stages.values()) {
                stage.queryEnded(ended);
            }
        }

        QuerySummary summary(long now) {
            return detail(now, false).summary();
        }

        QueryDetail detail(long now) {
            return detail(now, true);
        }

        private QueryDetail detail(long now, boolean full) {
            Long endTime = end == null ? null : end.time();
            long duration = (endTime == null ? now : endTime) - start.time();
            String state = end == null ? "RUNNING" : end.state();
            Long rows = end == null ? null : end.rows();
            String error = end == null ? null : end.error();
            if (!full) {
                return new QueryDetail(start.queryId(), start.sql(), state, start.time(), endTime, duration, rows, error,
                        null, List.of(), List.of());
            }
            String plan = end != null && end.plan() != null ? end.plan()
                    : start.live() != null ? livePlan() : start.plan();
            Map<Integer, StageView> views = new LinkedHashMap<>();
            stages.forEach((id, s) -> views.put(id, s.view(now)));
            List<ExchangeView> exchanges = new ArrayList<>();
            for (StageRecord stage : stages.values()) {
                for (int parent : stage.info.parents()) {
                    StageView from = views.get(parent);
                    StageRecord fromRecord = stages.get(parent);
                    if (from != null) {
                        exchanges.add(new ExchangeView(parent, stage.info.id(), from.rows(), from.bytes(),
                                fromRecord.info.exchange()));
                    }
                }
            }
            return new QueryDetail(start.queryId(), start.sql(), state, start.time(), endTime, duration, rows, error,
                    plan, List.copyOf(views.values()), exchanges);
        }

        private String livePlan() {
            try {
                return start.live().get();
            } catch (RuntimeException e) {
                return start.plan();
            }
        }
    }

    /** One stage of a query's current job and its tasks' attempts. Guarded by the store's lock. */
    private static final class StageRecord {
        final StageInfo info;
        final List<Attempt> attempts = new ArrayList<>();
        String state = "PENDING";
        Long startTime;
        Long endTime;

        StageRecord(StageInfo info) {
            this.info = info;
        }

        void apply(QueryEvent event) {
            if (event instanceof StageSubmitted submitted) {
                state = "RUNNING";
                if (startTime == null) {
                    startTime = submitted.time();
                }
                endTime = null;
            } else if (event instanceof StageCompleted completed) {
                state = "FINISHED";
                endTime = completed.time();
            } else if (event instanceof TaskStarted started) {
                attempts.add(new Attempt(started));
            } else if (event instanceof TaskEnded ended) {
                for (int i = attempts.size() - 1; i >= 0; i--) {
                    Attempt a = attempts.get(i);
                    if (a.end == null && a.start.partition() == ended.partition() && a.start.attempt() == ended.attempt()) {
                        a.end = ended;
                        return;
                    }
                }
            }
        }

        void queryEnded(QueryEnded ended) {
            if (!"FINISHED".equals(state)) {
                state = "FINISHED".equals(ended.state()) ? state : "FAILED";
                if (startTime != null && endTime == null) {
                    endTime = ended.time();
                }
            }
            for (Attempt a : attempts) {
                if (a.end == null) {
                    a.end = new TaskEnded(a.start.jobId(), a.start.stageId(), a.start.partition(), a.start.attempt(),
                            a.start.worker(), "KILLED", null, "the query ended: " + ended.state(), false, ended.time());
                }
            }
        }

        StageView view(long now) {
            Map<Integer, QueryEvent.TaskNumbers> latest = new HashMap<>();
            int failed = 0;
            int running = 0;
            long rowsRead = 0;
            for (Attempt a : attempts) {
                if (a.end == null) {
                    running++;
                } else if ("FAILED".equals(a.end.state())) {
                    failed++;
                } else if ("FINISHED".equals(a.end.state()) && a.end.metrics() != null) {
                    latest.put(a.start.partition(), a.end.metrics());
                }
            }
            long rows = 0;
            long bytes = 0;
            long spill = 0;
            for (QueryEvent.TaskNumbers m : latest.values()) {
                rows += m.rows();
                bytes += m.bytesWritten();
                spill += m.spillBytes();
                rowsRead += m.rowsRead();
            }
            return new StageView(info.id(), state, info.operators(), info.parents(), info.tasks(), latest.size(), failed,
                    running, rows, bytes, rowsRead, spill, startTime, endTime);
        }
    }

    /** One attempt of a task. Guarded by the store's lock. */
    private static final class Attempt {
        final TaskStarted start;
        TaskEnded end;

        Attempt(TaskStarted start) {
            this.start = start;
        }

        TaskView view(long now) {
            QueryEvent.TaskNumbers m = end == null ? null : end.metrics();
            Long endTime = end == null ? null : end.time();
            long duration = m != null ? m.durationMs() : (endTime == null ? now : endTime) - start.time();
            return new TaskView(start.partition(), start.attempt(), start.worker(), end == null ? "RUNNING" : end.state(),
                    start.time(), endTime, duration, m == null ? 0 : m.rows(), m == null ? 0 : m.bytesRead(),
                    m == null ? 0 : m.bytesWritten(), m == null ? 0 : m.shuffleFetchWaitMs(), m == null ? 0 : m.spillBytes(),
                    m == null ? 0 : m.gcTimeMs(), end == null ? null : end.error());
        }
    }
}
