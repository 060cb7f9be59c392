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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The commit where a rename is cheap and atomic per file (local disks, HDFS). Task attempts write
 * under {@code <target>/_temporary/<job>/<task attempt>/}, which readers skip; the commit moves
 * the files of exactly one attempt per partition (the one whose result arrived) into the target,
 * into their partition directories for a partitioned target. A write that replaces or hides files
 * (an overwrite, or any write to a target that already has a {@link CommitManifest}) commits
 * through the manifest: first it records what readers see now (when no manifest does), then moves
 * the new files in (unlisted, so invisible), then one atomic manifest write lists the new set (the
 * commit point), then the replaced files are deleted. A crash before the manifest write leaves the
 * old data visible, after it the new: never neither. A plain write to a target without a manifest
 * (create, append) moves its files in and writes an empty {@code _SUCCESS}, as Hadoop's committer
 * does, so other engines read the target as before.
 */
record RenameCommit(WriteTarget target) implements CommitProtocol {
    RenameCommit {
        requireNonNull(target, "target is null");
    }

    /** The directory one task attempt of a job writes into. */
    static Path attemptDir(String location, String jobId, String taskAttemptId) {
        return new Path(jobDir(new Path(location), jobId), taskAttemptId);
    }

    @Override
    public Path taskFile(int partition, String jobId, String taskAttemptId) {
        return new Path(attemptDir(target.location(), jobId, taskAttemptId), target.fileName(partition));
    }

    @Override
    public String reported(Path taskFile) {
        return taskFile.getParent().toString();
    }

    private static Path jobDir(Path base, String jobId) {
        return new Path(new Path(base, TEMPORARY), jobId);
    }

    @Override
    public boolean setup() {
        return CommitFiles.setup(target, (fs, base, existed) -> {
            if (existed) {
                CommitFiles.checkInside(fs, base, new Path(base, TEMPORARY));
            }
        });
    }

    @Override
    public void commit(String jobId, List<String> attemptDirs, CommitObserver observer) {
        Path base = new Path(target.location());
        try {
            FileSystem fs = base.getFileSystem(HadoopConfiguration.shared());
            fs.mkdirs(base); // a job whose partitions were all empty may have created nothing
            Optional<List<String>> manifest = CommitManifest.read(fs, base);
            if (target.mode() != SaveMode.OVERWRITE && manifest.isEmpty()) {
                moveIn(fs, base, attemptDirs);
                removeJobDir(fs, base, jobId);
                fs.create(new Path(base, SUCCESS), true).close();
                return;
            }
            Set<String> present = CommitFiles.dataFiles(fs, base);
            Set<String> visible = CommitFiles.visible(fs, base, present);
            if (manifest.isEmpty()) {
                CommitManifest.write(fs, base, visible, false); // the files moved in next stay invisible
            }
            List<String> added = moveIn(fs, base, attemptDirs);
            observer.reached(Step.NEW_FILES_IN_PLACE);
            Set<String> listed = CommitFiles.next(target, visible, added);
            CommitManifest.write(fs, base, listed, false); // the commit point: readers now see exactly these files
            observer.reached(Step.PUBLISHED);
            removeJobDir(fs, base, jobId);
            if (target.mode() == SaveMode.OVERWRITE) {
                CommitFiles.removeUnlisted(fs, base, present, listed, file -> true);
            }
        } catch (IOException e) {
            throw new SluiceException("committing the write to '" + target.location() + "' failed; readers still "
                    + "see the data as it was unless its manifest was written: " + e.getMessage(), e);
        } finally {
            SourceFiles.forgetListings();
        }
    }

    /** Moves every file of each attempt directory into the target; returns their paths relative to it. */
    private static List<String> moveIn(FileSystem fs, Path base, List<String> attemptDirs) throws IOException {
        List<String> moved = new ArrayList<>();
        for (String dir : attemptDirs) {
            Path attempt = new Path(dir);
            if (!fs.exists(attempt)) {
                continue; // the attempt had nothing to write
            }
            for (String file : PartitionDirectories.files(fs, attempt)) {
                Path source = new Path(attempt, file);
                Path destination = new Path(base, file);
                if (!fs.mkdirs(destination.getParent())) {
                    throw new IOException("cannot create " + destination.getParent());
                }
                CommitFiles.checkInside(fs, base, destination.getParent());
                if (fs.exists(destination) || !fs.rename(source, destination)) {
                    throw new IOException("cannot move " + source + " to " + destination);
                }
                moved.add(file);
            }
        }
        return moved;
    }

    @Override
    public void abort(String jobId, boolean targetExisted) {
        Path base = new Path(target.location());
        try {
            FileSystem fs = base.getFileSystem(HadoopConfiguration.shared());
            removeJobDir(fs, base, jobId);
            if (!targetExisted && fs.exists(base) && fs.listStatus(base).length == 0) {
                fs.delete(base, false);
            }
        } catch (IOException e) {
            throw new SluiceException("cannot remove the unfinished write at '" + target.location() + "': "
                    + e.getMessage(), e);
        }
    }

    private static void removeJobDir(FileSystem fs, Path base, String jobId) throws IOException {
        fs.delete(jobDir(base, jobId), true);
        Path temporary = new Path(base, TEMPORARY);
        if (fs.exists(temporary) && fs.listStatus(temporary).length == 0) {
            fs.delete(temporary, false);
        }
    }
}
