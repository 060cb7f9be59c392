package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.Path;

/**
 * A table location as the file access policy checked it: each of its comma-separated paths parsed
 * by Hadoop's {@code Path} (as every reader and writer parses it, {@code ?} and {@code #} part of the
 * path) and normalized ({@code ..} and {@code .} resolved, the scheme lower-case, a local path
 * absolute). {@link #text} is that normal form as one location string: the catalog and write targets
 * carry it, so the location opened is the one checked, not the text a client sent.
 *
 * @param raw   the location as the client wrote it, for messages
 * @param paths the normalized paths
 */
public record CheckedLocation(String raw, List<Path> paths) {
    public CheckedLocation {
        requireNonNull(raw, "raw is null");
        paths = List.copyOf(paths);
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no path in location " + raw);
        }
    }

    /** The normalized location: its paths, a comma inside one escaped as {@code \,}, joined by commas. */
    public String text() {
        return paths.stream().map(p -> p.toString().replace(",", "\\,")).collect(Collectors.joining(","));
    }
}
