package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Which free slot a queued task takes, as delay scheduling (Spark's {@code spark.locality.wait}):
 * a task whose input lies on some hosts (HDFS blocks) goes to a worker on one of them when one has
 * a free slot; otherwise it waits, at most {@code localityWait} from when it was queued, then takes
 * any slot. It does not wait when no usable worker runs on any of its hosts (waiting could not
 * help), nor when it has no hosts (local files, shuffle reads), which costs nothing more than
 * before. Among the slots it may take, a worker that is not excluded and that its earlier attempts
 * did not fail on comes first; then any worker not excluded, so a task that failed everywhere still
 * gets its attempts. Pure: the dispatcher passes in what it knows.
 */
final class TaskPlacement {
    /** The choice that takes no slot now. */
    static final int NONE = -1;

    /**
     * A worker with a free slot, as this task sees it.
     *
     * @param host    the host the worker joined the cluster with
     * @param healthy not excluded, and none of the task's earlier attempts failed on it
     * @param allowed may run the task at all (not excluded, unless every worker is)
     */
    record Slot(String host, boolean healthy, boolean allowed) {
        Slot {
            requireNonNull(host, "host is null");
        }
    }

    private final long localityWaitMillis;

    TaskPlacement(Duration localityWait) {
        this.localityWaitMillis = requireNonNull(localityWait, "localityWait is null").toMillis();
    }

    /**
     * The index in {@code free} of the slot the task takes now, trying them in order, or {@link #NONE}.
     *
     * @param hosts     the task's preferred hosts
     * @param waited    milliseconds since the task was queued
     * @param free      the workers with a free slot, in the order to try them
     * @param liveHosts the hosts of every usable worker, free or busy
     */
    int choose(List<String> hosts, long waited, List<Slot> free, Set<String> liveHosts) {
        if (!hosts.isEmpty()) {
            for (int i = 0; i < free.size(); i++) {
                if (free.get(i).healthy() && hosts.contains(free.get(i).host())) {
                    return i;
                }
            }
            if (waitsForLocality(hosts, waited, liveHosts)) {
                return NONE;
            }
        }
        int allowed = NONE;
        for (int i = 0; i < free.size(); i++) {
            if (free.get(i).healthy()) {
                return i;
            }
            if (allowed == NONE && free.get(i).allowed()) {
                allowed = i;
            }
        }
        return allowed;
    }

    /** Whether a task with these hosts, queued {@code waited} ms ago, still holds out for one of them. */
    boolean waitsForLocality(List<String> hosts, long waited, Set<String> liveHosts) {
        return waited < localityWaitMillis && hosts.stream().anyMatch(liveHosts::contains);
    }

    /** Milliseconds until a task queued {@code waited} ms ago stops waiting for its hosts. */
    long remainingWait(long waited) {
        return Math.max(0, localityWaitMillis - waited);
    }
}
