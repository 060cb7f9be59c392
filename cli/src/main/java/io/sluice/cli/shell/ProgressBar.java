package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.QueryProgress;
import io.sluice.coordinator.RunningQueries;
import io.sluice.coordinator.scheduler.DagScheduler.StageProgress;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A console progress bar for one query, as Spark's: while the query runs, it is found by this
 * client's tag among the running queries ({@code GET /v1/jobs}), then followed by its id through
 * the monitoring API ({@code GET /api/v1/queries/{id}}, read as {@link QueryProgress}), and one
 * stderr line redrawn with each running stage's finished and total tasks, e.g.
 * {@code [Stage 2:==========>          (37/64)]}. When that query ends, the next one with the tag (a
 * script's next statement) is looked up. Closing it clears the line.
 */
final class ProgressBar implements AutoCloseable {
    private static final int WIDTH = 80;

    private final Supplier<String> runningQueries;
    private final Function<String, Optional<String>> monitoredQuery;
    private final String tag;
    private final PrintWriter err;
    private final Thread poller;
    private volatile boolean closed;
    private String shown = "";
    /** The id of the query followed now; null until found (and again after it ended). */
    private String followed;

    private ProgressBar(Supplier<String> runningQueries, Function<String, Optional<String>> monitoredQuery, String tag,
            PrintWriter err, Duration interval) {
        this.runningQueries = requireNonNull(runningQueries, "runningQueries is null");
        this.monitoredQuery = requireNonNull(monitoredQuery, "monitoredQuery is null");
        this.tag = requireNonNull(tag, "tag is null");
        this.err = requireNonNull(err, "err is null");
        this.poller = new Thread(() -> poll(interval), "sluice-progress");
        this.poller.setDaemon(true);
    }

    /**
     * Starts redrawing every {@code interval}: {@code runningQueries} answers as {@code GET /v1/jobs},
     * {@code monitoredQuery} as {@code GET /api/v1/queries/{id}} (empty when unknown).
     */
    static ProgressBar start(Supplier<String> runningQueries, Function<String, Optional<String>> monitoredQuery,
            String tag, PrintWriter err, Duration interval) {
        ProgressBar bar = new ProgressBar(runningQueries, monitoredQuery, tag, err, interval);
        bar.poller.start();
        return bar;
    }

    private void poll(Duration interval) {
        while (!closed) {
            try {
                Thread.sleep(interval.toMillis());
                draw(render(runningStages()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // the coordinator did not answer this time: keep the last line, try again
            }
        }
    }

    private synchronized void draw(String line) {
        if (closed || line.equals(shown)) {
            return;
        }
        // pad over the longer previous line; an empty line leaves the cursor where output starts
        err.print("\r" + line + " ".repeat(Math.max(0, shown.length() - line.length())) + (line.isEmpty() ? "\r" : ""));
        err.flush();
        shown = line;
    }

    /** The running stages of the query followed (found first by its tag); none while no query of the tag runs. */
    List<StageProgress> runningStages() {
        if (followed == null) {
            followed = idOf(runningQueries.get(), tag).orElse(null);
            if (followed == null) {
                return List.of();
            }
        }
        Optional<QueryProgress> query = monitoredQuery.apply(followed).map(QueryProgress::fromJson);
        if (query.isEmpty() || !query.get().running()) {
            followed = null;
            return List.of();
        }
        return query.get().runningStages();
    }

    /** The id of the (first) query tagged {@code tag} in a {@code GET /v1/jobs} answer. */
    static Optional<String> idOf(String json, String tag) {
        return RunningQueries.fromJson(json).stream()
                .filter(query -> query.tag().equals(tag))
                .findFirst()
                .map(RunningQueries.Info::id);
    }

    /** One line of at most {@value #WIDTH} characters (empty when no stage runs): a bar per stage. */
    static String render(List<StageProgress> stages) {
        if (stages.isEmpty()) {
            return "";
        }
        StringBuilder line = new StringBuilder();
        int each = WIDTH / stages.size();
        for (StageProgress s : stages) {
            String head = "[Stage " + s.stage() + ":";
            String tail = "(" + s.done() + "/" + s.total() + ")]";
            int bar = each - head.length() - tail.length();
            line.append(head);
            if (bar > 2) {
                int filled = (int) ((long) bar * s.done() / Math.max(1, s.total()));
                line.append("=".repeat(filled)).append(filled < bar ? ">" : "")
                        .append(" ".repeat(Math.max(0, bar - filled - 1)));
            }
            line.append(tail);
        }
        return line.toString();
    }

    /** Stops redrawing and clears the line. */
    @Override
    public void close() {
        closed = true;
        poller.interrupt();
        synchronized (this) {
            if (!shown.isEmpty()) {
                err.print("\r" + " ".repeat(shown.length()) + "\r");
                err.flush();
                shown = "";
            }
        }
    }
}
