package io.sluice.worker;

import java.util.ArrayList;
import java.util.List;

/**
 * Run in a JVM of its own with a small heap by {@link TaskErrorsTest}: meets each kind of
 * out-of-memory error as a task would (the heap mark taken first, the error caught once the
 * task's frames are gone) and prints how {@link TaskErrors} classifies it, one {@code kind
 * fatal=BOOLEAN} line each.
 */
public final class TaskErrorsProbe {
    private TaskErrorsProbe() {
    }

    public static void main(String[] args) {
        print("past-vm-limit", () -> new long[Integer.MAX_VALUE].length);
        print("oversized", () -> new long[Integer.MAX_VALUE - 8].length);
        print("exhausted", TaskErrorsProbe::fill);
    }

    /** Fills the heap with small arrays until it is exhausted, as a task that keeps too much would. */
    private static int fill() {
        List<long[]> kept = new ArrayList<>();
        while (true) {
            kept.add(new long[64]);
        }
    }

    private interface Work {
        int run();
    }

    private static void print(String kind, Work work) {
        long mark = TaskErrors.heapMark();
        try {
            System.out.println(kind + " ran: " + work.run());
        } catch (OutOfMemoryError e) {
            System.out.println(kind + " fatal=" + TaskErrors.isFatal(e, mark) + " (" + e.getMessage() + ")");
        }
    }
}
