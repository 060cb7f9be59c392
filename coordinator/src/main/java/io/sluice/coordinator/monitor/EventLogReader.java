package io.sluice.coordinator.monitor;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.monitor.QueryEvent.JobStarted;
import io.sluice.coordinator.monitor.QueryEvent.QueryEnded;
import io.sluice.coordinator.monitor.QueryEvent.QueryStarted;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Replays an event log directory ({@link EventLogWriter}'s files) into a {@link QueryStore}: each
 * file's lines in order. A line that is not an event (a file cut short by a crash, or not ours)
 * is skipped and reported with its file and line number; the rest of the file still counts. A
 * query id met again in another application's file (a restarted coordinator counts from
 * {@code q1} again) is shown as {@code <id>@<application>}. A query whose file has no end (the
 * coordinator stopped while it ran) stays RUNNING.
 */
public final class EventLogReader {
    private EventLogReader() {
    }

    /** What a replay read: files, events applied, and one message per line skipped. */
    public record Replay(int files, long events, List<String> skipped) {
        public Replay {
            skipped = List.copyOf(skipped);
        }
    }

    public static Replay replay(Path directory, QueryStore store) {
        requireNonNull(store, "store is null");
        if (!Files.isDirectory(directory)) {
            throw new SluiceException("the event log directory " + directory + " does not exist or is not a directory");
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.filter(p -> p.getFileName().toString().endsWith(EventLogWriter.SUFFIX)).sorted().toList();
        } catch (IOException e) {
            throw new SluiceException("cannot list the event log directory " + directory + ": " + e.getMessage(), e);
        }
        Set<String> seen = new HashSet<>();
        List<String> skipped = new ArrayList<>();
        long events = 0;
        for (Path file : files) {
            events += replayFile(file, store, seen, skipped);
        }
        return new Replay(files.size(), events, skipped);
    }

    private static long replayFile(Path file, QueryStore store, Set<String> seen, List<String> skipped) {
        String name = file.getFileName().toString();
        String application = name.contains("_") ? name.substring(0, name.indexOf('_')) : name;
        String rename = null;
        long applied = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int lineNumber = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                QueryEvent event;
                try {
                    event = MonitorJson.readEvent(line);
                } catch (UncheckedIOException e) {
                    skipped.add(file + " line " + lineNumber + ": not an event: " + e.getMessage());
                    continue;
                }
                if (event instanceof QueryStarted started && !seen.add(started.queryId())) {
                    rename = started.queryId() + "@" + application;
                }
                store.onEvent(rename == null ? event : renamed(event, rename));
                applied++;
            }
        } catch (IOException e) {
            skipped.add(file + ": cannot read: " + e.getMessage());
        }
        return applied;
    }

    private static QueryEvent renamed(QueryEvent event, String id) {
        if (event instanceof QueryStarted s) {
            return new QueryStarted(id, s.jobId(), s.sql(), s.plan(), s.stages(), s.time(), s.live());
        }
        if (event instanceof JobStarted j) {
            return new JobStarted(id, j.jobId(), j.time());
        }
        if (event instanceof QueryEnded e) {
            return new QueryEnded(id, e.state(), e.rows(), e.error(), e.plan(), e.time());
        }
        return event;
    }
}
