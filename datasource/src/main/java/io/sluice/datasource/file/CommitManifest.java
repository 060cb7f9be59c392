package io.sluice.datasource.file;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The list of a directory's committed data files, kept in its {@code _SUCCESS} file, which decides
 * what readers see where a commit cannot rename (object stores): one PUT of this file is a write's
 * commit. Its first line is {@link #HEADER}; each further line names one file of the directory.
 * An empty {@code _SUCCESS} (Hadoop's and Spark's committers, our renaming commit) or one in
 * another format (S3A's committers) is no manifest: then every data file of the directory counts.
 */
public final class CommitManifest {
    public static final String FILE = "_SUCCESS";
    public static final String HEADER = "# sluice commit manifest v1";

    private CommitManifest() {
    }

    /** The file names the manifest of {@code dir} lists; empty when it has none. */
    public static Optional<List<String>> read(FileSystem fs, Path dir) throws IOException {
        Path file = new Path(dir, FILE);
        try (FSDataInputStream in = fs.open(file);
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

    /** Replaces the manifest of {@code dir} by one listing {@code names}, in one write. */
    public static void write(FileSystem fs, Path dir, Collection<String> names) throws IOException {
        try (Writer out = new OutputStreamWriter(fs.create(new Path(dir, FILE), true), StandardCharsets.UTF_8)) {
            out.write(HEADER);
            out.write('\n');
            for (String name : new TreeSet<>(names)) {
                if (name.contains("/") || name.contains("\n")) {
                    throw new IllegalArgumentException("not a file name: " + name);
                }
                out.write(name);
                out.write('\n');
            }
        }
    }
}
