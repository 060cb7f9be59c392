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
