package io.sluice.operators.memory;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Where one task's operators spill: a directory of its own under the worker's local directory,
 * made on the first spill. Operators delete their files when done with them; {@link #close}
 * (when the task ends, whatever the outcome) deletes the directory and anything left in it.
 */
public final class SpillFiles implements AutoCloseable {
    private final Path directory;
    private final AtomicInteger next = new AtomicInteger();
    private volatile boolean created;

    public SpillFiles(Path directory) {
        this.directory = requireNonNull(directory, "directory is null");
    }

    /** Spill files of a task run outside a worker: a fresh directory under the system's temporary directory. */
    public static SpillFiles temporary(String taskId) {
        String safe = taskId.replaceAll("[^A-Za-z0-9._-]", "_");
        return new SpillFiles(Path.of(System.getProperty("java.io.tmpdir"), "sluice-spill-" + safe + "-"
                + Long.toHexString(System.nanoTime())));
    }

    public Path directory() {
        return directory;
    }

    /** A new, not yet existing file path for a spill of {@code kind} (a word for the file name). */
    public Path newFile(String kind) {
        if (!created) {
            synchronized (this) {
                try {
                    Files.createDirectories(directory);
                } catch (IOException e) {
                    throw new SluiceException("cannot create the spill directory " + directory + ": " + e.getMessage());
                }
                created = true;
            }
        }
        return directory.resolve(kind + "-" + next.incrementAndGet() + ".arrow");
    }

    /** Deletes one spill file (missing is fine). */
    public static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete spill file " + file, e);
        }
    }

    /** Deletes the directory and everything in it. */
    @Override
    public void close() {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(SpillFiles::delete);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete spill directory " + directory, e);
        }
    }
}
