package io.sluice.datasource.file;

import java.util.concurrent.atomic.LongAdder;

/**
 * The time this JVM's scan tasks spent blocked on reading files (opening a row group: its column
 * chunks read from storage, or waiting for a read-ahead still in flight), summed over tasks: a
 * benchmark takes it before and after a query to tell waiting on storage from decoding. Reads done
 * ahead on other threads while the task computes are not counted.
 */
public final class ReadWaits {
    private static final LongAdder NANOS = new LongAdder();

    private ReadWaits() {
    }

    /** Adds the time a task waited since {@code startNanos} ({@link System#nanoTime()}). */
    public static void since(long startNanos) {
        NANOS.add(System.nanoTime() - startNanos);
    }

    /** The nanoseconds waited so far. */
    public static long nanos() {
        return NANOS.sum();
    }
}
