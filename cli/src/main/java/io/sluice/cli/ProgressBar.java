package io.sluice.cli;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.RunningQueries;
import io.sluice.coordinator.scheduler.DagScheduler.StageProgress;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * A console progress bar for one query, as Spark's: while the query runs, the running queries are
 * polled ({@code GET /v1/jobs}), the one with this client's tag found, and one stderr line redrawn
 * with each unfinished stage's finished and total tasks, e.g.
 * {@code [Stage 2:==========>          (37/64)]}. Closing it clears the line.
 */
final class ProgressBar implements AutoCloseable {
    private static final int WIDTH = 80;

    private final Supplier<String> runningQueries;
    private final String tag;
    private final PrintWriter err;
    private final Thread poller;
    private volatile boolean closed;
    private String shown = "";

    private ProgressBar(Supplier<String> runningQueries, String tag, PrintWriter err, Duration interval) {
        this.runningQueries = requireNonNull(runningQueries, "runningQueries is null");
        this.tag = requireNonNull(tag, "tag is null");
        this.err = requireNonNull(err, "err is null");
        this.poller = new Thread(() -> poll(interval), "sluice-progress");
        this.poller.setDaemon(true);
    }

    /** Starts redrawing every {@code interval}. */
    static ProgressBar start(Supplier<String> runningQueries, String tag, PrintWriter err, Duration interval) {
        ProgressBar bar = new ProgressBar(runningQueries, tag, err, interval);
        bar.poller.start();
        return bar;
    }

    private void poll(Duration interval) {
        while (!closed) {
            try {
                Thread.sleep(interval.toMillis());
                String line = render(stagesOf(runningQueries.get(), tag));
                draw(line);
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
        // pad over the longer previous line
        err.print("\r" + line + " ".repeat(Math.max(0, shown.length() - line.length())));
        err.flush();
        shown = line;
    }

    /** The unfinished stages of the (first) query tagged {@code tag} in a {@code GET /v1/jobs} answer. */
    static List<StageProgress> stagesOf(String json, String tag) {
        return RunningQueries.fromJson(json).stream()
                .filter(query -> query.tag().equals(tag))
                .findFirst()
                .map(RunningQueries.Info::stages)
                .orElse(List.of());
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
