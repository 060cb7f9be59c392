package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One requested segment arriving over a connection: the event loop appends chunks as they come
 * (no copy, no cumulation), the reading task takes them through {@link #read}. At most about
 * {@link #HIGH_WATER} bytes wait here: above it the connection stops reading (auto-read off) until
 * the task has consumed down to {@link #LOW_WATER}, so TCP flow control slows the server instead
 * of memory growing. Closing before the end drops the connection (it is out of sync).
 */
final class RemoteSegment implements ReadableByteChannel {
    static final int HIGH_WATER = 4 << 20;
    static final int LOW_WATER = 1 << 20;

    /** What the server says about the segment before its bytes. */
    record Header(long length, long rows, int crc) {
    }

    private final BlockLocation block;
    private final String jobId;
    private final boolean reused;
    private final Channel channel;
    private final long timeoutMillis;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<ByteBuf> chunks = new ArrayDeque<>();
    private Header header;
    private long queuedBytes;
    private boolean complete;
    private boolean ownsConnection = true;
    private boolean paused;
    private boolean closed;
    private Throwable failure;
    private long waitNanos;

    RemoteSegment(BlockLocation block, String jobId, Channel channel, boolean reused, long timeoutMillis) {
        this.block = requireNonNull(block, "block is null");
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.reused = reused;
        this.channel = requireNonNull(channel, "channel is null");
        this.timeoutMillis = timeoutMillis;
    }

    BlockLocation block() {
        return block;
    }

    String jobId() {
        return jobId;
    }

    /**
     * Whether the request went over a pooled connection that died before answering (the server
     * restarted or dropped it while idle): the idempotent request is worth sending again.
     */
    boolean staleConnection() {
        lock.lock();
        try {
            return reused && header == null && failure instanceof IOException;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the server's answer; an error answer or a lost connection is a fetch failure. */
    Header awaitHeader() {
        lock.lock();
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (header == null && failure == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    channel.close();
                    throw block.serverLost("no answer within " + timeoutMillis + " ms", null);
                }
                waitNanos += left - Math.max(0, changed.awaitNanos(left));
            }
            if (header == null) {
                String reason = String.valueOf(failure.getMessage());
                throw failure instanceof IOException ? block.serverLost(reason, failure) : block.failure(reason, failure);
            }
            return header;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            channel.close();
            throw block.failure("interrupted while waiting", e);
        } finally {
            lock.unlock();
        }
    }

    // ---- called on the event loop

    void onHeader(Header h) {
        signal(() -> header = h);
    }

    void onData(ByteBuf chunk) {
        lock.lock();
        try {
            if (closed) {
                chunk.release();
                return;
            }
            chunks.add(chunk);
            queuedBytes += chunk.readableBytes();
            if (queuedBytes > HIGH_WATER && !paused && ownsConnection) {
                paused = true;
                channel.config().setAutoRead(false);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The response is over (all bytes or an error answer): the connection no longer belongs to
     * this segment, so it may go back to the pool. Called before {@link #onComplete} or
     * {@link #onAnswered}, so a reader that sees the end finds the connection already pooled.
     */
    void detach() {
        signal(() -> {
            ownsConnection = false;
            paused = false;
        });
    }

    /** The last byte arrived. */
    void onComplete() {
        signal(() -> complete = true);
    }

    /** The server answered with an error. */
    void onAnswered(Throwable error) {
        signal(() -> {
            failure = error;
            complete = true;
        });
    }

    void onFailure(Throwable cause) {
        signal(() -> {
            if (failure == null && ownsConnection) {
                failure = cause;
            }
        });
    }

    private void signal(Runnable update) {
        lock.lock();
        try {
            update.run();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---- called by the reading task

    @Override
    public int read(ByteBuffer dst) throws IOException {
        lock.lock();
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (chunks.isEmpty() && !complete && failure == null) {
                if (closed) {
                    throw new IOException("segment is closed");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    channel.close();
                    throw new ConnectionLost("no data from the server within " + timeoutMillis + " ms", null);
                }
                waitNanos += left - Math.max(0, changed.awaitNanos(left));
            }
            if (chunks.isEmpty()) {
                if (failure != null) {
                    throw failure instanceof IOException
                            ? new ConnectionLost(failure.getMessage(), failure)
                            : new IOException(failure.getMessage(), failure);
                }
                return -1;
            }
            ByteBuf head = chunks.peekFirst();
            int n = Math.min(head.readableBytes(), dst.remaining());
            int limit = dst.limit();
            dst.limit(dst.position() + n);
            head.readBytes(dst);
            dst.limit(limit);
            if (!head.isReadable()) {
                chunks.pollFirst().release();
            }
            queuedBytes -= n;
            if (paused && ownsConnection && queuedBytes <= LOW_WATER) {
                paused = false;
                channel.config().setAutoRead(true);
            }
            return n;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + block.describe(), e);
        } finally {
            lock.unlock();
        }
    }

    /** Time the reading task spent blocked waiting for this segment's header and bytes. */
    long waitNanos() {
        lock.lock();
        try {
            return waitNanos;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    /** Releases queued chunks; an unfinished segment's connection is closed, since the rest of it would follow. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (ownsConnection) {
                channel.close();
            }
            chunks.forEach(ByteBuf::release);
            chunks.clear();
            queuedBytes = 0;
        } finally {
            lock.unlock();
        }
    }

    /** The connection failed while the segment was streaming. */
    static final class ConnectionLost extends IOException {
        private static final long serialVersionUID = 1L;

        ConnectionLost(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
