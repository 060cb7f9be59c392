package io.sluice.datasource.file;

import java.io.FilterInputStream;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.Seekable;

/**
 * The local file system under the scheme {@code closeaware:}, whose open streams fail once the file
 * system is closed, as HDFS's and S3A's do ("Filesystem closed"); it counts how many were closed,
 * and the streams open now.
 */
public final class CloseAwareFileSystem extends RawLocalFileSystem {
    public static final String SCHEME = "closeaware";
    private static final AtomicInteger CLOSED = new AtomicInteger();
    private static final AtomicInteger OPEN_STREAMS = new AtomicInteger();
    private volatile boolean closed;

    /** Instances closed so far in this JVM. */
    public static int closedCount() {
        return CLOSED.get();
    }

    /** Streams of these file systems opened and not closed yet. */
    public static int openStreams() {
        return OPEN_STREAMS.get();
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
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        FSDataInputStream in = new FSDataInputStream(new Checked(super.open(f, bufferSize)));
        OPEN_STREAMS.incrementAndGet();
        return in;
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            CLOSED.incrementAndGet();
        }
        super.close();
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("Filesystem closed");
        }
    }

    /** A stream of this file system that fails once it is closed. */
    private final class Checked extends FilterInputStream implements Seekable, PositionedReadable {
        private final FSDataInputStream in;
        private boolean streamClosed;

        Checked(FSDataInputStream in) {
            super(in);
            this.in = in;
        }

        @Override
        public void close() throws IOException {
            if (!streamClosed) {
                streamClosed = true;
                OPEN_STREAMS.decrementAndGet();
            }
            super.close();
        }

        @Override
        public int read() throws IOException {
            checkOpen();
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            checkOpen();
            return in.read(b, off, len);
        }

        @Override
        public int read(long position, byte[] buffer, int offset, int length) throws IOException {
            checkOpen();
            return in.read(position, buffer, offset, length);
        }

        @Override
        public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
            checkOpen();
            in.readFully(position, buffer, offset, length);
        }

        @Override
        public void readFully(long position, byte[] buffer) throws IOException {
            checkOpen();
            in.readFully(position, buffer);
        }

        @Override
        public void seek(long pos) throws IOException {
            checkOpen();
            in.seek(pos);
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public boolean seekToNewSource(long targetPos) throws IOException {
            return in.seekToNewSource(targetPos);
        }
    }
}
