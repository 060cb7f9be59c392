package io.sluice.datasource.sink;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.datasource.file.CommitManifest;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The commit of a write to an object store, where a rename is a copy and not atomic: no file is
 * ever renamed. Each task attempt writes its partition's file under its final, attempt-unique name
 * ({@code part-00003-<writeId>-<taskId>.parquet}) straight into the target, or into its partition
 * directories ({@code region=eu/part-…}) for a partitioned target; an object appears whole when its
 * upload completes. What readers see is decided by the target's one {@link CommitManifest} at its
 * root, which lists files by relative path, partition directories included: {@link #setup} writes
 * one listing the files already visible (none for a new target) before any task runs, so a job's
 * files stay invisible while it runs; {@link #commit} replaces it, in one PUT, by one listing the
 * files of exactly the attempts whose results arrived (plus, to append, those listed before; for a
 * dynamic partition overwrite, those of the partitions it wrote nothing into), then deletes, by
 * listing the target, what it no longer lists: replaced files (overwrite) and this write's other
 * attempts. {@link #abort} deletes, by listing, every file of the failed job, and a target it
 * created. An attempt still running when its job ended may leave a file behind after that, which
 * no manifest lists and the next overwrite removes. One writer at a time per target, as with Spark.
 */
record DirectCommit(WriteTarget target) implements CommitProtocol {
    DirectCommit {
        requireNonNull(target, "target is null");
    }

    @Override
    public Path taskFile(int partition, String jobId, String taskId) {
        String name = target.fileName(partition);
        int dot = name.lastIndexOf('.');
        return new Path(new Path(target.location()), name.substring(0, dot) + "-" + taskId + name.substring(dot));
    }

    @Override
    public String reported(Path taskFile) {
        return taskFile.toString();
    }

    /** Hides whatever the job will write: the target gets a manifest of what readers see now. */
    @Override
    public boolean setup() {
        return CommitFiles.setup(target, (fs, base, existed) -> {
            if (!existed || CommitManifest.read(fs, base).isEmpty()) {
                CommitManifest.write(fs, base, CommitFiles.dataFiles(fs, base), true);
            }
        });
    }

    /**
     * Publishes the reported files (for a partitioned target, the file of that name in each partition
     * directory), then removes what the manifest no longer lists; one listing of the target serves
     * both the check that every reported file is there and the clean-up.
     */
    @Override
    public void commit(String jobId, List<String> files, CommitObserver observer) {
        Path base = new Path(target.location());
        try {
            FileSystem fs = base.getFileSystem(HadoopConfiguration.shared());
            Set<String> present = CommitFiles.dataFiles(fs, base);
            Set<String> reported = new HashSet<>();
            for (String file : files) {
                String name = new Path(file).getName();
                if (!target.isPartitioned() && !present.contains(name)) {
                    throw new IOException("the reported file " + file + " is missing");
                }
                reported.add(name);
            }
            List<String> added = new ArrayList<>();
            for (String file : present) {
                if (reported.contains(new Path(file).getName())) {
                    added.add(file);
                }
            }
            Set<String> visible = CommitFiles.visible(fs, base, Set.of());
            observer.reached(Step.NEW_FILES_IN_PLACE);
            Set<String> listed = CommitFiles.next(target, visible, added);
            CommitManifest.write(fs, base, listed, true); // the commit: readers now see exactly these files
            observer.reached(Step.PUBLISHED);
            String ours = "-" + target.writeId() + "-";
            boolean overwrite = target.mode() == SaveMode.OVERWRITE;
            CommitFiles.removeUnlisted(fs, base, present, listed, file -> overwrite || file.contains(ours));
        } catch (IOException e) {
            throw new SluiceException("committing the write to '" + target.location() + "' failed; readers still "
                    + "see the data as it was unless its manifest was written: " + e.getMessage(), e);
        } finally {
            SourceFiles.forgetListings();
        }
    }

    /** Removes every file of the failed job, found by listing, and the manifest of a target the write created. */
    @Override
    public void abort(String jobId, boolean existed) {
        Path base = new Path(target.location());
        try {
            FileSystem fs = base.getFileSystem(HadoopConfiguration.shared());
            if (!fs.exists(base)) {
                return;
            }
            String job = "-" + target.writeId() + "-" + jobId + "-";
            Set<String> present = CommitFiles.dataFiles(fs, base);
            CommitFiles.removeUnlisted(fs, base, present, Set.of(), file -> file.contains(job));
            if (!existed && present.stream().allMatch(file -> file.contains(job))) {
                fs.delete(base, true);
            }
        } catch (IOException e) {
            throw new SluiceException("cannot remove the unfinished write at '" + target.location() + "': "
                    + e.getMessage(), e);
        }
    }
}
