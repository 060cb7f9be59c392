package io.sluice.datasource.file;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The list of a table directory's committed data files, kept in its {@code _SUCCESS} file: the
 * commit point of every write that has one. Its first line is {@link #HEADER}; each further line
 * names one file by its path relative to the directory ({@code part-0.parquet}, {@code
 * region=eu/part-0.parquet}), so one manifest at a partitioned table's root decides for every
 * partition directory at once. A reader honouring it sees exactly the files it lists and ignores
 * every other file below the directory. An empty {@code _SUCCESS} (Hadoop's and Spark's
 * committers) or one in another format (S3A's committers) is no manifest: then every data file
 * counts.
 *
 * <p>{@link #write} replaces the manifest atomically, so a reader sees the old list or the new,
 * never a partial one or none: a temporary file renamed over it where the file system renames
 * atomically (local disks, HDFS), a single PUT on object stores (which publish an object whole).
 */
public final class CommitManifest {
    public static final String FILE = "_SUCCESS";
    public static final String HEADER = "# sluice commit manifest v1";

    private CommitManifest() {
    }

    /** The relative paths the manifest of {@code dir} lists; empty when it has none. */
    public static Optional<List<String>> read(FileSystem fs, Path dir) throws IOException {
        Path file = new Path(dir, FILE);
        FileSystem raw = fs instanceof LocalFileSystem local ? local.getRaw() : fs; // written without a checksum file
        try (FSDataInputStream in = raw.open(file);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String first = reader.readLine();
            if (!HEADER.equals(first)) {
                return Optional.empty();
            }
            List<String> names = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) {
                    names.add(line);
                }
            }
            return Optional.of(names);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * Replaces the manifest of {@code dir} by one listing {@code names}, atomically: by one PUT when
     * {@code objectStore} (where a PUT publishes an object whole and a rename is a copy), else by
     * renaming a temporary file over it (atomic on local disks and HDFS).
     */
    public static void write(FileSystem fs, Path dir, Collection<String> names, boolean objectStore) throws IOException {
        Path manifest = new Path(dir, FILE);
        FileSystem raw = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
        if (objectStore) {
            writeTo(fs, manifest, names); // an object store: one PUT publishes the object whole
            return;
        }
        Path temporary = new Path(dir, "_" + FILE + "." + UUID.randomUUID() + ".tmp");
        writeTo(raw, temporary, names);
        try {
            if (raw instanceof RawLocalFileSystem local) {
                Files.move(local.pathToFile(temporary).toPath(), local.pathToFile(manifest).toPath(),
                        StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                FileContext.getFileContext(fs.getUri(), fs.getConf()).rename(temporary, manifest, Options.Rename.OVERWRITE);
            }
        } finally {
            raw.delete(temporary, false);
        }
    }

    private static void writeTo(FileSystem fs, Path file, Collection<String> names) throws IOException {
        try (Writer out = new OutputStreamWriter(fs.create(file, true), StandardCharsets.UTF_8)) {
            out.write(HEADER);
            out.write('\n');
            for (String name : new TreeSet<>(names)) {
                if (name.isEmpty() || name.startsWith("/") || name.contains("\n") || name.equals("..")
                        || name.startsWith("../") || name.contains("/../") || name.endsWith("/..")) {
                    throw new IllegalArgumentException("not a relative file path: " + name);
                }
                out.write(name);
                out.write('\n');
            }
        }
    }
}
