package io.sluice.cli;

/**
 * Runs a server node in the foreground until the JVM is told to stop (SIGTERM, Ctrl-C), closing
 * the node from a shutdown hook so that it leaves the cluster and frees its ports cleanly.
 */
final class Foreground {
    private Foreground() {
    }

    /** Something that blocks until the node has stopped; it may also never return. */
    interface Wait {
        void await() throws InterruptedException;
    }

    /**
     * Blocks in {@code until} with {@code node} closed on JVM shutdown.
     *
     * @return true if the node stopped by itself (then it is closed here), false if the JVM is
     *         shutting down (then the hook closes it)
     */
    static boolean run(AutoCloseable node, Wait until) throws InterruptedException {
        Thread hook = new Thread(() -> closeQuietly(node), "sluice-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        until.await();
        if (shuttingDown()) {
            return false;
        }
        Runtime.getRuntime().removeShutdownHook(hook);
        closeQuietly(node);
        return true;
    }

    /** Blocks until the JVM exits. */
    static void forever() throws InterruptedException {
        Thread.sleep(Long.MAX_VALUE);
    }

    private static boolean shuttingDown() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    private static void closeQuietly(AutoCloseable node) {
        try {
            node.close();
        } catch (Exception e) {
            // on the way out: a failing close must not hide the rest of the shutdown, but is told
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            System.err.println("sluice: closing " + node + " failed: " + e);
        }
    }
}
