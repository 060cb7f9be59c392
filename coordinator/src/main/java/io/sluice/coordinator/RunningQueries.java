package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.type.TypeReference;
import io.sluice.coordinator.scheduler.DagScheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * The queries running on the coordinator, for {@code GET /v1/jobs} and {@code POST
 * /v1/jobs/ID/cancel}: each has a public id ({@code q1}, {@code q2}, ...), its text, when it
 * started and the scheduler job that runs it now (a query run again after a lost worker gets a new
 * job). Cancelling marks the query, so that it is not run again, and cancels its current job.
 */
public final class RunningQueries {
    /**
     * What a listing shows of one query: its ids, the tag its client gave it (empty if none), how
     * long it has run, its unfinished stages' progress and its text. Its JSON form is one object
     * with these fields in this order, {@code elapsedMillis} named {@code elapsed_ms}.
     */
    @JsonPropertyOrder({"id", "job", "tag", "elapsed_ms", "stages", "query"})
    public record Info(String id, String job, String tag, @JsonProperty("elapsed_ms") long elapsedMillis,
            List<DagScheduler.StageProgress> stages, String query) {
        public Info {
            requireNonNull(id, "id is null");
            job = job == null ? "" : job;
            tag = tag == null ? "" : tag;
            stages = List.copyOf(requireNonNull(stages, "stages is null"));
            requireNonNull(query, "query is null");
        }

        /** One JSON object. */
        public String toJson() {
            return Json.write(this);
        }
    }

    /** A running query; its owner sets the job, anyone may cancel it. */
    public final class Handle implements AutoCloseable {
        private final String id;
        private final String query;
        private final String tag;
        private final long startedNanos = System.nanoTime();
        private volatile String job;
        private volatile String cancelReason;

        private Handle(String id, String query, String tag) {
            this.id = id;
            this.query = query;
            this.tag = tag;
        }

        public String id() {
            return id;
        }

        /** The scheduler job now running this query. */
        public void runningAs(String jobId) {
            this.job = jobId;
        }

        /** Why it was cancelled, or null. */
        public String cancelReason() {
            return cancelReason;
        }

        Info info() {
            String current = job;
            return new Info(id, current, tag, (System.nanoTime() - startedNanos) / 1_000_000,
                    current == null ? List.of() : progress.apply(current), query);
        }

        /** The query ended: it leaves the listing. */
        @Override
        public void close() {
            queries.remove(id);
        }
    }

    /** The HTTP header by which a client tags the queries of its request, to find them in listings. */
    public static final String TAG_HEADER = "X-Sluice-Tag";
    private static final int SHOWN_QUERY_CHARS = 200;

    private final Map<String, Handle> queries = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    /** Cancels a scheduler job by id with a reason; false when it is not running. */
    private final BiPredicate<String, String> cancelJob;
    /** The unfinished stages of a scheduler job. */
    private final Function<String, List<DagScheduler.StageProgress>> progress;

    public RunningQueries(BiPredicate<String, String> cancelJob,
            Function<String, List<DagScheduler.StageProgress>> progress) {
        this.cancelJob = requireNonNull(cancelJob, "cancelJob is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Registers a query without a client tag. */
    public Handle start(String query) {
        return start(query, null);
    }

    /**
     * Registers a query (its text shortened for listings) with the tag its client gave it (null:
     * none), by which the client finds it in listings; close the handle when it ends.
     */
    public Handle start(String query, String tag) {
        String text = query.strip().replaceAll("\\s+", " ");
        if (text.length() > SHOWN_QUERY_CHARS) {
            text = text.substring(0, SHOWN_QUERY_CHARS) + "...";
        }
        Handle handle = new Handle("q" + ids.incrementAndGet(), text, tag);
        queries.put(handle.id, handle);
        return handle;
    }

    /** The running queries, oldest first. */
    public List<Info> list() {
        List<Info> out = new ArrayList<>();
        queries.values().forEach(h -> out.add(h.info()));
        out.sort(Comparator.comparingLong(Info::elapsedMillis).reversed());
        return out;
    }

    /** The running queries as a JSON array, oldest first, as {@code GET /v1/jobs} answers. */
    public String toJson() {
        return Json.write(list());
    }

    /**
     * The queries in a {@code GET /v1/jobs} answer, as a client reads them; an answer that is not
     * such a listing is an {@link java.io.UncheckedIOException}.
     */
    public static List<Info> fromJson(String json) {
        return Json.read(json, LISTING);
    }

    private static final TypeReference<List<Info>> LISTING = new TypeReference<>() {
    };

    /**
     * Cancels the query with this id (or whose current job has this id); false when none is running.
     * Its job stops at once; if it is between jobs, it does not start another.
     */
    public boolean cancel(String id, String reason) {
        Handle handle = queries.get(id);
        if (handle == null) {
            handle = queries.values().stream().filter(h -> id.equals(h.job)).findFirst().orElse(null);
        }
        if (handle == null) {
            return false;
        }
        handle.cancelReason = reason;
        String job = handle.job;
        if (job != null) {
            cancelJob.test(job, reason);
        }
        return true;
    }
}
