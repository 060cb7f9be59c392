package io.sluice.datasource.sink;

import io.sluice.common.settings.Settings;
import io.sluice.datasource.DatasourceSettingsDeclaration;
import io.sluice.datasource.file.CommitManifest;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The commit of a write to an object store, where a rename is a copy and not atomic: no file is
 * ever renamed. Each task attempt writes its partition's file under its final, attempt-unique name
 * ({@code part-00003-<writeId>-<taskId>.parquet}) straight into the target; an object appears
 * whole when its upload completes. What readers see is decided by the target's
 * {@link CommitManifest} ({@code _SUCCESS}): {@link #setup} writes one listing the files already
 * visible (none for a new target) before any task runs, so a job's files stay invisible while it
 * runs; {@link #commit} replaces it, in one PUT, by one listing the files of exactly the attempts
 * whose results arrived (plus, to append, those listed before), then deletes, by listing the
 * target, what it no longer lists: replaced files (overwrite) and this write's other attempts.
 * {@link #abort} deletes, by listing, every file of the failed job, and a target it created. An
 * attempt still running when its job ended may leave a file behind after that, which no manifest
 * lists and the next overwrite removes. One writer at a time per target, as with Spark.
 */
final class DirectCommit {
    private DirectCommit() {
    }

    /** Whether writes to {@code location} commit this way ({@code sluice.fs.direct-write-schemes}). */
    static boolean applies(String location) {
        String scheme = new Path(location).toUri().getScheme();
        if (scheme == null) {
            return false;
        }
        String schemes = Settings.systemProperty(DatasourceSettingsDeclaration.DIRECT_WRITE_SCHEMES);
        return Arrays.stream(schemes.split(",")).map(s -> s.trim().toLowerCase(Locale.ROOT))
                .anyMatch(scheme.toLowerCase(Locale.ROOT)::equals);
    }

    /** The file a task attempt writes its partition to. */
    static Path taskFile(WriteTarget target, int partition, String taskId) {
        String name = target.fileName(partition);
        int dot = name.lastIndexOf('.');
        return new Path(new Path(target.location()), name.substring(0, dot) + "-" + taskId + name.substring(dot));
    }

    /** Hides whatever the job will write: the target gets a manifest of what readers see now. */
    static void setup(FileSystem fs, Path base, boolean existed) throws IOException {
        if (existed && CommitManifest.read(fs, base).isPresent()) {
            return;
        }
        List<String> visible = new ArrayList<>();
        if (existed) {
            for (FileStatus child : fs.listStatus(base)) {
                String name = child.getPath().getName();
                if (child.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
                    visible.add(name);
                }
            }
        }
        CommitManifest.write(fs, base, visible);
    }

    /**
     * Publishes the reported files (one per partition), then removes what the manifest no longer
     * lists; one listing of the target serves both the check that every reported file is there and
     * the clean-up.
     */
    static void commit(FileSystem fs, WriteTarget target, List<String> files) throws IOException {
        Path base = new Path(target.location());
        FileStatus[] children = fs.listStatus(base);
        Set<String> present = new HashSet<>();
        for (FileStatus child : children) {
            present.add(child.getPath().getName());
        }
        Set<String> listed = new LinkedHashSet<>();
        if (target.mode() == SaveMode.APPEND) {
            listed.addAll(CommitManifest.read(fs, base).orElse(List.of()));
        }
        for (String file : files) {
            String name = new Path(file).getName();
            if (!present.contains(name)) {
                throw new IOException("the reported file " + file + " is missing");
            }
            listed.add(name);
        }
        CommitManifest.write(fs, base, listed); // the commit: readers now see exactly these files
        for (FileStatus child : children) {
            String name = child.getPath().getName();
            boolean ours = name.contains("-" + target.writeId() + "-");
            boolean replaced = target.mode() == SaveMode.OVERWRITE && !name.startsWith("_") && !name.startsWith(".");
            if (!listed.contains(name) && (ours || replaced)) {
                fs.delete(child.getPath(), true);
            }
        }
    }

    /** Removes every file of the failed job, found by listing, and the manifest of a target the write created. */
    static void abort(FileSystem fs, WriteTarget target, String jobId, boolean existed) throws IOException {
        Path base = new Path(target.location());
        if (!fs.exists(base)) {
            return;
        }
        String job = "-" + target.writeId() + "-" + jobId + "-";
        boolean othersLeft = false;
        for (FileStatus child : fs.listStatus(base)) {
            String name = child.getPath().getName();
            if (name.contains(job)) {
                fs.delete(child.getPath(), true);
            } else if (!name.equals(CommitManifest.FILE)) {
                othersLeft = true;
            }
        }
        if (!existed && !othersLeft) {
            fs.delete(base, true);
        }
    }
}
