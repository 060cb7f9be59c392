package io.sluice.worker;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;

/**
 * Tells a JVM {@code Error} that ends only the task that met it from one after which this JVM
 * cannot be trusted to run more tasks. A {@code StackOverflowError} is harmless once caught (the
 * stack has unwound); a {@code LinkageError} ({@code NoClassDefFoundError}, {@code
 * ExceptionInInitializerError}) breaks the classes the task's code needs, not the worker's; an
 * {@code OutOfMemoryError} from one allocation bigger than the heap can give leaves the heap as it
 * was. Those fail the task. Heap exhaustion that a collection does not undo (what {@code
 * -XX:+ExitOnOutOfMemoryError} would exit on), an out-of-memory of anything but the heap, and any
 * other {@code VirtualMachineError} are fatal: the worker stops and the coordinator re-runs its tasks.
 */
final class TaskErrors {
    /** Past this share of the maximum heap in use after a collection, the heap is exhausted. */
    static final double HEAP_EXHAUSTED = 0.85;

    private TaskErrors() {
    }

    static boolean isFatal(Error error) {
        if (error instanceof OutOfMemoryError oom) {
            return !(isHeapAllocation(oom) && heapRecovered());
        }
        return error instanceof VirtualMachineError && !(error instanceof StackOverflowError);
    }

    private static boolean isHeapAllocation(OutOfMemoryError error) {
        String message = String.valueOf(error.getMessage());
        return message.equals("Java heap space") || message.equals("Requested array size exceeds VM limit");
    }

    /**
     * Whether the heap has room again once the failed task's objects are unreachable. One allocation
     * larger than the heap leaves it as it was, which the usage shows at once; only a heap that looks
     * full gets a full collection (one at a time: it pauses every thread of the node) before the answer.
     */
    private static synchronized boolean heapRecovered() {
        if (heapInUse() < HEAP_EXHAUSTED) {
            return true;
        }
        System.gc();
        return heapInUse() < HEAP_EXHAUSTED;
    }

    private static double heapInUse() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long max = heap.getMax() > 0 ? heap.getMax() : Runtime.getRuntime().maxMemory();
        return (double) heap.getUsed() / max;
    }

    /** The failure a task reports for a non-fatal error: the error named, and that the worker went on. */
    static String describe(String taskId, Error error) {
        return "task " + taskId + " failed with " + error + " (a JVM error in the task's code; its worker goes on)";
    }
}
