package io.sluice.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A console progress bar for one query, as Spark's: while the query runs, the running queries are
 * polled ({@code GET /v1/jobs}), the one with this client's tag found, and one stderr line redrawn
 * with each unfinished stage's finished and total tasks, e.g.
 * {@code [Stage 2:==========>          (37/64)]}. Closing it clears the line.
 */
final class ProgressBar implements AutoCloseable {
    private static final int WIDTH = 80;
    private static final Pattern STAGE = Pattern.compile("\\{\"stage\":(\\d+),\"done\":(\\d+),\"total\":(\\d+)}");

    /** One unfinished stage. */
    record Stage(int id, int done, int total) {
    }

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

    /** The unfinished stages of the query tagged {@code tag} in a {@code GET /v1/jobs} answer. */
    static List<Stage> stagesOf(String json, String tag) {
        String marker = "\"tag\":\"" + tag + "\"";
        int at = json.indexOf(marker);
        List<Stage> stages = new ArrayList<>();
        if (at < 0) {
            return stages;
        }
        int from = json.indexOf("\"stages\":[", at);
        int to = from < 0 ? -1 : json.indexOf(']', from);
        if (to < 0) {
            return stages;
        }
        Matcher m = STAGE.matcher(json.substring(from, to));
        while (m.find()) {
            stages.add(new Stage(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
        }
        return stages;
    }

    /** One line of at most {@value #WIDTH} characters (empty when no stage runs): a bar per stage. */
    static String render(List<Stage> stages) {
        if (stages.isEmpty()) {
            return "";
        }
        StringBuilder line = new StringBuilder();
        int each = WIDTH / stages.size();
        for (Stage s : stages) {
            String head = "[Stage " + s.id() + ":";
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
