package io.sluice.datasource.sink;

import io.sluice.common.settings.Settings;
import io.sluice.datasource.DatasourceSettingsDeclaration;
import io.sluice.logical.sink.WriteTarget;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.Path;

/**
 * How a distributed write to one target becomes visible, chosen once per target ({@link #of}):
 * {@link RenameCommit} where renames are cheap and atomic (local disks, HDFS), {@link DirectCommit}
 * on object stores ({@code sluice.fs.direct-write-schemes}), where a rename is a copy. The
 * coordinator {@linkplain #setup checks the target} before the job; each task attempt writes its
 * partition to {@link #taskFile} and reports {@link #reported}; after the job the coordinator
 * either {@linkplain #commit commits} the attempts whose results arrived or {@linkplain #abort
 * aborts}. Where a commit replaces or hides files, the target's {@link
 * io.sluice.datasource.file.CommitManifest} is its commit point: one atomic write of it switches
 * readers from the old set of files to the new, so a reader (or a coordinator that dies mid-commit)
 * sees the old data or the new, never neither.
 */
public sealed interface CommitProtocol permits RenameCommit, DirectCommit {
    String TEMPORARY = "_temporary";
    String SUCCESS = "_SUCCESS";

    /** The protocol of {@code target}'s file system. */
    static CommitProtocol of(WriteTarget target) {
        return directWrites(target.location()) ? new DirectCommit(target) : new RenameCommit(target);
    }

    /** The target this protocol commits to. */
    WriteTarget target();

    /** The file one task attempt writes its partition to (for a partitioned target, the name in each partition directory). */
    Path taskFile(int partition, String jobId, String taskAttemptId);

    /** What a task attempt reports to {@link #commit} for the file it wrote. */
    String reported(Path taskFile);

    /**
     * Checks the target against the save mode before anything runs, and hides what the job will
     * write where tasks write into the target itself. Returns whether the target existed, which
     * {@link #abort} needs.
     */
    boolean setup();

    /** Makes a succeeded job's output visible: the files of exactly the reported attempts. */
    default void commit(String jobId, List<String> reported) {
        commit(jobId, reported, CommitObserver.NONE);
    }

    /** {@link #commit}, telling {@code observer} each step reached (where a crash can be simulated). */
    void commit(String jobId, List<String> reported, CommitObserver observer);

    /** Removes what a failed or cancelled job wrote, and the target itself when the job created it and nothing else is there. */
    void abort(String jobId, boolean targetExisted);

    /** The steps of a commit, in order. */
    enum Step {
        /** The new files are in the target, listed by no manifest yet: readers still see the old data. */
        NEW_FILES_IN_PLACE,
        /** The manifest lists the new set: readers see the new data; replaced files are not yet deleted. */
        PUBLISHED
    }

    /** Told each {@link Step} a commit reaches; a test throws from it to stop a commit as a crash would. */
    @FunctionalInterface
    interface CommitObserver {
        CommitObserver NONE = step -> { };

        void reached(Step step) throws IOException;
    }

    private static boolean directWrites(String location) {
        String scheme = new Path(location).toUri().getScheme();
        if (scheme == null) {
            return false;
        }
        String schemes = Settings.systemProperty(DatasourceSettingsDeclaration.DIRECT_WRITE_SCHEMES);
        return Arrays.stream(schemes.split(",")).map(s -> s.trim().toLowerCase(Locale.ROOT))
                .anyMatch(scheme.toLowerCase(Locale.ROOT)::equals);
    }
}
