package io.sluice.api;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system under the scheme {@code faulty://} (registered in test resources'
 * {@code core-site.xml}), which can fail the close of chosen files after their bytes were written:
 * a task attempt that wrote its whole file and then failed, as when a storage node drops a
 * connection at the end. Used to check that a retried attempt's leftover files are never committed.
 */
public final class FaultyFileSystem extends RawLocalFileSystem {
    public static final String SCHEME = "faulty";

    private static volatile Predicate<Path> failCloseOf = p -> false;
    private static volatile Predicate<Path> holdOpenOf = p -> false;
    private static volatile java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(0);
    private static final AtomicInteger HOLDING = new AtomicInteger();
    private static final AtomicInteger HELD = new AtomicInteger();
    private static volatile Thread planningThread;

    /**
     * From now on, a worker task opening a file whose path matches waits (at most 30 s) until
     * {@code release} counts down: a task held in the middle of its stage. Opens on the calling
     * thread (planning a query in this process) are not held.
     */
    static void holdOpening(Predicate<Path> which, java.util.concurrent.CountDownLatch release) {
        released = release;
        planningThread = Thread.currentThread();
        holdOpenOf = which;
        HELD.set(0);
    }

    /** Opens held since {@link #holdOpening}. */
    static int held() {
        return HELD.get();
    }

    /** Worker tasks waiting in an open now. */
    static int holding() {
        return HOLDING.get();
    }

    /** The listed files keep this scheme (the local file system names them {@code file:}), so their opens come here. */
    @Override
    public org.apache.hadoop.fs.FileStatus[] listStatus(Path f) throws IOException {
        org.apache.hadoop.fs.FileStatus[] statuses = super.listStatus(f);
        for (org.apache.hadoop.fs.FileStatus status : statuses) {
            status.setPath(new Path(SCHEME, null, status.getPath().toUri().getPath()));
        }
        return statuses;
    }

    @Override
    public org.apache.hadoop.fs.FSDataInputStream open(Path f, int bufferSize) throws IOException {
        if (holdOpenOf.test(f) && Thread.currentThread() != planningThread) {
            HELD.incrementAndGet();
            HOLDING.incrementAndGet();
            try {
                released.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while held");
            } finally {
                HOLDING.decrementAndGet();
            }
        }
        return super.open(f, bufferSize);
    }
    private static final AtomicInteger FAILED = new AtomicInteger();

    /** From now on, closing a file whose path matches fails (after the file is complete on disk). */
    static void failClosing(Predicate<Path> which) {
        failCloseOf = which;
        FAILED.set(0);
    }

    /** How many closes failed since {@link #failClosing}. */
    static int failedCloses() {
        return FAILED.get();
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize, short replication,
            long blockSize, Progressable progress) throws IOException {
        return faulty(f, super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress));
    }

    @Override
    public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication, long blockSize,
            Progressable progress) throws IOException {
        return faulty(f, super.create(f, overwrite, bufferSize, replication, blockSize, progress));
    }

    private static FSDataOutputStream faulty(Path f, FSDataOutputStream out) throws IOException {
        if (!failCloseOf.test(f)) {
            return out;
        }
        return new FSDataOutputStream(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
                FAILED.incrementAndGet();
                throw new IOException("injected failure closing " + f);
            }
        }, null);
    }
}
