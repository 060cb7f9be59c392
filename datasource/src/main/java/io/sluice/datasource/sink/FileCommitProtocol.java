package io.sluice.datasource.sink;

import io.sluice.common.SluiceException;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * How a distributed write becomes visible, through Hadoop's {@code FileSystem} (so on any file
 * system it supports). Task attempts write under {@code <target>/_temporary/<job>/<task attempt>/};
 * the coordinator {@linkplain #setup checks the target} before the job, and after it either
 * {@linkplain #commit commits} (moves the files of exactly one attempt per partition, the one
 * whose result it received, into the target, then writes {@code _SUCCESS}) or {@linkplain #abort
 * aborts} (removes the job's temporary directory, and the target itself if the job created it).
 * Readers skip names starting with {@code _} or {@code .}, so a write in progress is invisible. The
 * moves of a commit are renames, atomic per file on HDFS and local disks; a commit that fails
 * halfway can leave some of the new files in place (as Hadoop's v1 file committer can), which the
 * error message says. A partitioned target's files move into their partition directories; an
 * overwrite of it replaces only the partition directories the job wrote into ({@link PartitionDirectories}).
 * On object stores ({@code sluice.fs.direct-write-schemes}), where a rename is a
 * copy, writes commit without one instead: {@link DirectCommit}
 * (not yet for partitioned targets, which are refused there).
 */
public final class FileCommitProtocol {
    public static final String TEMPORARY = "_temporary";
    public static final String SUCCESS = "_SUCCESS";

    private FileCommitProtocol() {
    }

    static Configuration conf() {
        return HadoopConfiguration.shared();
    }

    /** The directory one task attempt of a job writes into (where writes commit by renaming). */
    public static Path attemptDir(String location, String jobId, String taskAttemptId) {
        return new Path(jobDir(new Path(location), jobId), taskAttemptId);
    }

    /** The file one task attempt writes its partition to. */
    public static Path taskFile(WriteTarget target, int partition, String jobId, String taskAttemptId) {
        if (DirectCommit.applies(target.location())) {
            return DirectCommit.taskFile(target, partition, taskAttemptId);
        }
        return new Path(attemptDir(target.location(), jobId, taskAttemptId), target.fileName(partition));
    }

    /** What a task attempt reports to {@link #commit} for its file: its attempt directory, or on an object store the file. */
    public static String reported(WriteTarget target, Path taskFile) {
        return DirectCommit.applies(target.location()) ? taskFile.toString() : taskFile.getParent().toString();
    }

    private static Path jobDir(Path base, String jobId) {
        return new Path(new Path(base, TEMPORARY), jobId);
    }

    /**
     * Checks the target against the save mode before anything runs: an existing target is an error
     * for {@link SaveMode#ERROR_IF_EXISTS}, and a plain file is one for every mode. Returns whether
     * the target existed, which {@link #abort} needs.
     */
    public static boolean setup(WriteTarget target) {
        Path base = new Path(target.location());
        if (target.isPartitioned() && DirectCommit.applies(target.location())) {
            throw new SluiceException("cannot write to '" + target.location() + "': partitioned writes to object stores"
                    + " (sluice.fs.direct-write-schemes) are not supported yet; write without partitionBy / PARTITIONED BY");
        }
        try {
            FileSystem fs = base.getFileSystem(conf());
            if (!fs.exists(base)) {
                if (DirectCommit.applies(target.location())) {
                    DirectCommit.setup(fs, base, false);
                }
                return false;
            }
            if (!fs.getFileStatus(base).isDirectory()) {
                throw new SluiceException("cannot write to '" + target.location() + "': it is a file, not a directory");
            }
            if (target.mode() == SaveMode.ERROR_IF_EXISTS) {
                throw new SluiceException("cannot write to '" + target.location() + "': it already exists "
                        + "(use save mode overwrite or append to write there anyway)");
            }
            if (DirectCommit.applies(target.location())) {
                DirectCommit.setup(fs, base, true);
            }
            return true;
        } catch (IOException e) {
            throw new SluiceException("cannot check the write target '" + target.location() + "': " + e.getMessage(), e);
        }
    }

    /**
     * Makes a succeeded job's output visible: with {@link SaveMode#OVERWRITE} the target's existing
     * entries are deleted first; then every file of each given attempt directory (one per partition,
     * the attempts that reported success) moves into the target; other attempts' directories are
     * deleted with the job's temporary directory; {@code _SUCCESS} is written last.
     */
    public static void commit(WriteTarget target, String jobId, List<String> attemptDirs) {
        Path base = new Path(target.location());
        try {
            FileSystem fs = base.getFileSystem(conf());
            if (DirectCommit.applies(target.location())) {
                DirectCommit.commit(fs, target, attemptDirs);
                SourceFiles.forgetListings();
                return;
            }
            fs.mkdirs(base); // a job whose partitions were all empty may have created nothing
            if (target.mode() == SaveMode.OVERWRITE && target.isPartitioned()) {
                PartitionDirectories.deleteWritten(fs, base, attemptDirs); // dynamic: only the partitions written
            } else if (target.mode() == SaveMode.OVERWRITE) {
                for (FileStatus existing : fs.listStatus(base)) {
                    if (!existing.getPath().getName().equals(TEMPORARY) && !fs.delete(existing.getPath(), true)) {
                        throw new IOException("cannot delete " + existing.getPath());
                    }
                }
            }
            for (String dir : attemptDirs) {
                Path attempt = new Path(dir);
                if (!fs.exists(attempt)) {
                    continue; // the attempt had nothing to write
                }
                for (String file : PartitionDirectories.files(fs, attempt)) {
                    Path source = new Path(attempt, file);
                    Path destination = new Path(base, file);
                    if (!fs.mkdirs(destination.getParent()) || fs.exists(destination) || !fs.rename(source, destination)) {
                        throw new IOException("cannot move " + source + " to " + destination);
                    }
                }
            }
            removeJobDir(fs, base, jobId);
            fs.create(new Path(base, SUCCESS), true).close();
            SourceFiles.forgetListings();
        } catch (IOException e) {
            throw new SluiceException("committing the write to '" + target.location() + "' failed; some new files "
                    + "may already be there: " + e.getMessage(), e);
        }
    }

    /**
     * Removes what a failed or cancelled job wrote: its temporary directory, {@code _temporary} when
     * no other job uses it, and the target itself when the job created it and it is empty.
     */
    public static void abort(WriteTarget target, String jobId, boolean targetExisted) {
        Path base = new Path(target.location());
        try {
            FileSystem fs = base.getFileSystem(conf());
            if (DirectCommit.applies(target.location())) {
                DirectCommit.abort(fs, target, jobId, targetExisted);
                return;
            }
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
