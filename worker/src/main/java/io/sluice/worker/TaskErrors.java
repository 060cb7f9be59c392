package io.sluice.worker;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells a JVM {@code Error} that ends only the task that met it from one after which this JVM
 * cannot be trusted to run more tasks. The rule:
 *
 * <ul>
 *   <li>{@code StackOverflowError}: the task's; the stack has unwound once it is caught.
 *   <li>{@code LinkageError} ({@code NoClassDefFoundError}, {@code ExceptionInInitializerError}):
 *       the task's; it breaks the classes the task's code needs, not the worker's.
 *   <li>{@code OutOfMemoryError} from one oversized allocation: the task's. That is an array past
 *       the VM's limit ({@code Requested array size exceeds VM limit}, refused before anything is
 *       allocated), or {@code Java heap space} when no collection since the task started left the
 *       heap's long-lived space {@value #HEAP_EXHAUSTED_PERCENT}% full or more: the one request was
 *       larger than the room, other threads still had room, so none of them met the error.
 *   <li>{@code Java heap space} when a collection since the task started left that space at least
 *       {@value #HEAP_EXHAUSTED_PERCENT}% full: the heap was exhausted (what {@code
 *       -XX:+ExitOnOutOfMemoryError} exits on). Any thread of the node, not only the task's, may
 *       have met the error and left its state half-changed, so the worker stops, however much the
 *       heap frees once the task's objects are gone; the coordinator sees it lost and re-runs its tasks.
 *   <li>Any other {@code OutOfMemoryError} (metaspace, direct memory, native threads), any other
 *       {@code VirtualMachineError}, and a JVM whose heap pools cannot count such collections: fatal.
 * </ul>
 *
 * The heap's state is not read when the error is caught: by then the failed task's objects are
 * garbage and the first allocation on the way out may already have collected them, so the heap
 * looks healthy after any exhaustion. It is the JVM's own count of collections that ended above
 * the threshold ({@link MemoryPoolMXBean#getCollectionUsageThresholdCount}), which only grows: a
 * task compares it with its value when the task started ({@link #heapMark}).
 */
final class TaskErrors {
    /** From this share of a long-lived heap pool's maximum still in use after a collection, the heap is exhausted. */
    static final int HEAP_EXHAUSTED_PERCENT = 85;
    /** The JVM counts on its service thread just after a collection; an answer waits this long for a late count. */
    private static final long COUNT_DELAY_MILLIS = 100;
    private static final List<MemoryPoolMXBean> WATCHED = watchedPools();

    private TaskErrors() {
    }

    /** Collections so far that left the heap exhausted; a task takes it when it starts. */
    static long heapMark() {
        long count = 0;
        for (MemoryPoolMXBean pool : WATCHED) {
            count += pool.getCollectionUsageThresholdCount();
        }
        return count;
    }

    /** Whether {@code error}, met by a task that started when {@link #heapMark} was {@code heapMarkAtStart}, stops the worker. */
    static boolean isFatal(Error error, long heapMarkAtStart) {
        if (error instanceof OutOfMemoryError oom) {
            String message = String.valueOf(oom.getMessage());
            if (message.equals("Requested array size exceeds VM limit")) {
                return false;
            }
            return !message.equals("Java heap space") || heapExhaustedSince(heapMarkAtStart);
        }
        return error instanceof VirtualMachineError && !(error instanceof StackOverflowError);
    }

    private static boolean heapExhaustedSince(long mark) {
        if (WATCHED.isEmpty()) {
            return true;
        }
        if (heapMark() > mark) {
            return true;
        }
        try {
            Thread.sleep(COUNT_DELAY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true; // no time to be sure: the safe answer
        }
        return heapMark() > mark;
    }

    /**
     * The long-lived heap pools (old generation, or the one heap of a single-space collector; not
     * eden or survivor), each set to count collections that leave it {@value #HEAP_EXHAUSTED_PERCENT}%
     * full or more. A pool that refuses the threshold is left out.
     */
    private static List<MemoryPoolMXBean> watchedPools() {
        List<MemoryPoolMXBean> watched = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            long max = pool.getUsage() == null ? -1 : pool.getUsage().getMax();
            if (pool.getType() != MemoryType.HEAP || !pool.isValid() || !pool.isCollectionUsageThresholdSupported()
                    || max <= 0 || pool.getName().contains("Eden") || pool.getName().contains("Survivor")) {
                continue;
            }
            try {
                pool.setCollectionUsageThreshold(max / 100 * HEAP_EXHAUSTED_PERCENT);
                watched.add(pool);
            } catch (IllegalArgumentException | UnsupportedOperationException | SecurityException e) {
                // this pool cannot count: left out (with none left, every heap error is fatal)
            }
        }
        return List.copyOf(watched);
    }

    /** The failure a task reports for a non-fatal error: the error named, and that the worker went on. */
    static String describe(String taskId, Error error) {
        return "task " + taskId + " failed with " + error + " (a JVM error in the task's code; its worker goes on)";
    }
}
