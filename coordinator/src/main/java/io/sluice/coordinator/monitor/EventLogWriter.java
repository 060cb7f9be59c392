package io.sluice.coordinator.monitor;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.monitor.QueryEvent.JobStarted;
import io.sluice.coordinator.monitor.QueryEvent.QueryEnded;
import io.sluice.coordinator.monitor.QueryEvent.QueryStarted;
import io.sluice.coordinator.monitor.QueryEvent.StageCompleted;
import io.sluice.coordinator.monitor.QueryEvent.StageSubmitted;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event log: each query's events as JSON lines ({@link QueryEvent}'s JSON form), one file per
 * query named {@code <application>_<query id>.jsonl} in the directory, where the application is
 * the coordinator's start ({@code app-<epoch ms>}), so that a restarted coordinator's query ids
 * never meet an earlier run's files. A file is flushed at every query and stage event and at most
 * {@link #FLUSH_MILLIS} after a task event, so a reader (or a crash) sees the query as it ran; it
 * is closed at the query's end. Runs on the {@link EventBus}'s thread: a slow disk delays the
 * log, never the scheduler. A file that cannot be written is logged and given up; the query goes
 * on.
 */
public final class EventLogWriter implements EventListener {
    private static final Logger LOG = LoggerFactory.getLogger(EventLogWriter.class);
    static final String SUFFIX = ".jsonl";
    static final long FLUSH_MILLIS = 500;

    private final Path directory;
    private final String application;
    /** Open files by query id, and the query of each job. */
    private final Map<String, QueryFile> byQuery = new HashMap<>();
    private final Map<String, QueryFile> byJob = new HashMap<>();

    private EventLogWriter(Path directory, String application) {
        this.directory = directory;
        this.application = application;
    }

    /** A writer into {@code directory} (created if missing); a directory that cannot be made is an error naming it. */
    public static EventLogWriter open(Path directory, long applicationStartMillis) {
        requireNonNull(directory, "directory is null");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new SluiceException("cannot create the event log directory " + directory + ": " + e.getMessage(), e);
        }
        if (!Files.isWritable(directory)) {
            throw new SluiceException("the event log directory " + directory + " is not writable");
        }
        return new EventLogWriter(directory, "app-" + applicationStartMillis);
    }

    @Override
    public void onEvent(QueryEvent event) {
        if (event instanceof QueryStarted started) {
            QueryFile file = QueryFile.create(directory.resolve(application + "_" + safe(started.queryId()) + SUFFIX));
            if (file != null) {
                byQuery.put(started.queryId(), file);
                byJob.put(started.jobId(), file);
                file.write(event, true);
            }
        } else if (event instanceof JobStarted job) {
            QueryFile file = byQuery.get(job.queryId());
            if (file != null) {
                byJob.put(job.jobId(), file);
                file.write(event, true);
            }
        } else if (event instanceof QueryEnded ended) {
            QueryFile file = byQuery.remove(ended.queryId());
            if (file != null) {
                byJob.values().removeIf(f -> f == file);
                file.write(event, true);
                file.close();
            }
        } else if (event instanceof QueryEvent.OfStage e) {
            QueryFile file = byJob.get(e.jobId());
            if (file != null) {
                file.write(event, event instanceof StageSubmitted || event instanceof StageCompleted);
            }
        }
    }

    /** Closes the files of queries still running (the coordinator stops): what was written stays readable. */
    @Override
    public void close() {
        byQuery.values().forEach(QueryFile::close);
        byQuery.clear();
        byJob.clear();
    }

    private static String safe(String id) {
        return id.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** One query's open file; given up after its first write error. */
    private static final class QueryFile {
        private final Path path;
        private Writer out;
        private long lastFlush = System.currentTimeMillis();

        private QueryFile(Path path, Writer out) {
            this.path = path;
            this.out = out;
        }

        static QueryFile create(Path path) {
            try {
                return new QueryFile(path, new BufferedWriter(Files.newBufferedWriter(path, StandardCharsets.UTF_8), 1 << 16));
            } catch (IOException e) {
                LOG.warn("cannot write the event log file {}: {}", path, e.toString());
                return null;
            }
        }

        void write(QueryEvent event, boolean flush) {
            if (out == null) {
                return;
            }
            try {
                out.write(MonitorJson.write(event));
                out.write('\n');
                long now = System.currentTimeMillis();
                if (flush || now - lastFlush >= FLUSH_MILLIS) {
                    out.flush();
                    lastFlush = now;
                }
            } catch (IOException | UncheckedIOException e) {
                LOG.warn("cannot write the event log file {}; giving it up: {}", path, e.toString());
                close();
            }
        }

        void close() {
            if (out == null) {
                return;
            }
            try {
                out.close();
            } catch (IOException e) {
                LOG.warn("cannot close the event log file {}: {}", path, e.toString());
            }
            out = null;
        }
    }
}
