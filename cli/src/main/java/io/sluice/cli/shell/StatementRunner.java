package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import io.sluice.api.Session;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs a session's statements one at a time. A {@code SET} holds for the statements after it, as
 * in one script: the engine takes settings per request, so every statement is sent after the
 * {@code SET}s run before it ({@code RESET} forgets them). Each run is tagged, which lets the
 * progress bar follow it and {@link #cancel} find it.
 */
final class StatementRunner {
    private static final Duration PROGRESS_INTERVAL = Duration.ofMillis(500);
    private static final int CANCEL_TRIES = 200;
    private static final long CANCEL_PAUSE_MILLIS = 50;

    private final Session session;
    private final PrintWriter progress;
    private final List<String> settings = new ArrayList<>();
    /** The tag of the statement running now; null between statements. */
    private volatile String running;
    private volatile boolean cancelled;

    /** {@code progress}: where the progress bar is drawn while a statement runs; null for none. */
    StatementRunner(Session session, PrintWriter progress) {
        this.session = requireNonNull(session, "session is null");
        this.progress = progress;
    }

    /** Runs {@code statement}, drawing the progress bar; its result as an Arrow IPC stream. */
    byte[] run(String statement, StatementKind kind) {
        String tag = newTag();
        cancelled = false;
        running = tag;
        byte[] result;
        try (ProgressBar bar = progress == null ? null
                : ProgressBar.start(session::runningQueries, session::monitoredQuery, tag, progress, PROGRESS_INTERVAL)) {
            result = session.sqlArrow(withSettings(statement, kind), tag);
        } finally {
            running = null;
        }
        if (kind == StatementKind.SETTING) {
            settings.add(statement);
        } else if (kind == StatementKind.RESET) {
            settings.clear();
        }
        return result;
    }

    /** A query the client runs for itself (completion asks for tables and columns): no progress bar, not cancelled by Ctrl-C. */
    byte[] query(String sql) {
        return session.sqlArrow(withSettings(sql, StatementKind.QUERY), newTag());
    }

    private String withSettings(String statement, StatementKind kind) {
        if (kind == StatementKind.SETTING || settings.isEmpty()) {
            return statement;
        }
        return String.join(";\n", settings) + ";\n" + statement;
    }

    private static String newTag() {
        return "sql-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }

    /**
     * Cancels the statement running now, if any (Ctrl-C): from another thread, it asks the cluster
     * to cancel the tagged query as soon as the cluster lists it, while that statement still runs.
     */
    void cancel() {
        String tag = running;
        if (tag == null) {
            return;
        }
        cancelled = true;
        Thread canceller = new Thread(() -> {
            for (int i = 0; i < CANCEL_TRIES && tag.equals(running); i++) {
                try {
                    Optional<String> id = ProgressBar.idOf(session.runningQueries(), tag);
                    if (id.isPresent() && session.cancel(id.get())) {
                        return;
                    }
                    Thread.sleep(CANCEL_PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // the coordinator did not answer this time: try again while the statement runs
                }
            }
        }, "sluice-cancel");
        canceller.setDaemon(true);
        canceller.start();
    }

    /** Whether {@link #cancel} was asked for during the last statement. */
    boolean cancelled() {
        return cancelled;
    }
}
