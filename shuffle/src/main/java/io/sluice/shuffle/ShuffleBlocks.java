package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where shuffle output lives on disk, shared by the writer (which creates it), the server and
 * local readers: map task {@code m} writes {@code <root>/<shuffleId>/map-<m>.data} (one Arrow IPC
 * stream segment per reduce partition, in partition order) and {@code map-<m>.index} (see
 * {@link SegmentIndex}). Shuffle ids are checked against a strict pattern so a request can never
 * name a path outside the root.
 */
public final class ShuffleBlocks {
    private static final Pattern SHUFFLE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}");

    private ShuffleBlocks() {
    }

    /** Whether {@code shuffleId} is safe as a single directory name: letters, digits, '_', '.', '-', not starting with '.' or '-'. */
    public static boolean isValidShuffleId(String shuffleId) {
        return shuffleId != null && SHUFFLE_ID.matcher(shuffleId).matches();
    }

    public static String checkShuffleId(String shuffleId) {
        requireNonNull(shuffleId, "shuffleId is null");
        if (!isValidShuffleId(shuffleId)) {
            throw new IllegalArgumentException("invalid shuffle id '" + shuffleId
                    + "': use 1 to 200 letters, digits, '_', '.' or '-', not starting with '.' or '-'");
        }
        return shuffleId;
    }

    public static Path shuffleDirectory(Path root, String shuffleId) {
        return root.resolve(checkShuffleId(shuffleId));
    }

    public static Path dataFile(Path root, String shuffleId, int map) {
        return shuffleDirectory(root, shuffleId).resolve("map-" + checkMap(map) + ".data");
    }

    public static Path indexFile(Path root, String shuffleId, int map) {
        return shuffleDirectory(root, shuffleId).resolve("map-" + checkMap(map) + ".index");
    }

    private static int checkMap(int map) {
        if (map < 0) {
            throw new IllegalArgumentException("negative map " + map);
        }
        return map;
    }

    static String describe(String shuffleId, int map, int partition) {
        return "shuffle=" + shuffleId + " map=" + map + " partition=" + partition;
    }
}
