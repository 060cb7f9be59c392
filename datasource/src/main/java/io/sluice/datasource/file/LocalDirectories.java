package io.sluice.datasource.file;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Lists a local directory as Hadoop's {@code RawLocalFileSystem.listStatus} does (links followed,
 * an entry removed meanwhile left out) with one attribute read per entry through NIO: Hadoop asks
 * {@code java.io.File} for each entry's length, time and kind separately, which made a cold listing
 * of thousands of files in partition directories cost seconds on a loaded machine.
 */
final class LocalDirectories {
    private LocalDirectories() {
    }

    /** The entries of {@code dir}, a qualified {@code file:} path; its children's paths are qualified the same way. */
    static FileStatus[] list(Path dir, long blockSize) throws IOException {
        List<FileStatus> out = new ArrayList<>();
        URI base = dir.toUri();
        String prefix = base.getPath().endsWith("/") ? base.getPath() : base.getPath() + "/";
        try (DirectoryStream<java.nio.file.Path> entries = Files.newDirectoryStream(java.nio.file.Path.of(dir.toUri()))) {
            for (java.nio.file.Path entry : entries) {
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(entry, BasicFileAttributes.class);
                } catch (NoSuchFileException e) {
                    continue; // removed while we listed, or a dangling link: Hadoop's listing leaves it out too
                }
                boolean directory = attributes.isDirectory();
                out.add(new FileStatus(directory ? 0 : attributes.size(), directory, 1, directory ? 0 : blockSize,
                        attributes.lastModifiedTime().toMillis(), child(base, prefix + entry.getFileName())));
            }
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(dir + " does not exist");
        }
        return out.toArray(FileStatus[]::new);
    }

    /** The child's path made from its URI: Hadoop's {@code new Path(dir, name)} runs regular expressions over each name. */
    private static Path child(URI base, String path) throws IOException {
        try {
            return new Path(new URI(base.getScheme(), base.getAuthority(), path, null, null));
        } catch (URISyntaxException e) {
            throw new IOException("cannot name " + path + ": " + e.getMessage(), e);
        }
    }
}
