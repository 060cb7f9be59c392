package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

/**
 * The batches of {@code count} streams, one after another, each closed when drained, so a task
 * reading many files (or a run of a Parquet file's row groups) holds few open at a time.
 *
 * <p>Without {@link ReadAhead} each stream is opened only when the one before it is drained. With
 * it, the next streams are opened on a node-wide pool while the current one is decoded: opening a
 * Parquet row group reads its column chunks, which on an object store is waiting on GETs that would
 * otherwise stall the task between row groups. At most {@link ReadAhead#streams()} streams are open
 * ahead, holding at most {@link ReadAhead#maxBytes()} between them (a stream larger than that alone
 * opens in its turn, as without read-ahead). {@link #close()} (a cancelled task) waits for the opens
 * in flight and closes what they opened, so nothing they allocated outlives the stream.
 */
public final class SequentialStream implements BatchStream {
    /** Threads opening streams ahead for all tasks of a node: opening is mostly waiting on storage. */
    private static final int READ_AHEAD_THREADS = 16;
    private static final ExecutorService READ_AHEAD_POOL = Executors.newFixedThreadPool(READ_AHEAD_THREADS, r -> {
        Thread t = new Thread(r, "sluice-read-ahead");
        t.setDaemon(true);
        return t;
    });

    /**
     * How far to read ahead: {@code bytes} says what stream {@code i} holds once open (its pages);
     * at most {@code streams} streams and {@code maxBytes} ahead.
     */
    public record ReadAhead(IntToLongFunction bytes, int streams, long maxBytes) {
        public ReadAhead {
            requireNonNull(bytes, "bytes is null");
            if (streams < 1 || maxBytes < 0) {
                throw new IllegalArgumentException("streams " + streams + ", maxBytes " + maxBytes);
            }
        }
    }

    /** A stream being opened ahead, and the bytes it will hold. */
    private record Opening(CompletableFuture<BatchStream> stream, long bytes) {
    }

    private final int count;
    private final IntFunction<BatchStream> open;
    private final ReadAhead readAhead;
    /** Streams {@code next .. scheduled - 1}, being opened ahead, in order. */
    private final ArrayDeque<Opening> ahead = new ArrayDeque<>();
    private int next;
    private int scheduled;
    private long bytesAhead;
    private volatile boolean closed;
    private BatchStream current;

    public SequentialStream(int count, IntFunction<BatchStream> open) {
        this(count, open, null);
    }

    /** Reads ahead as {@code readAhead} says; null: opens each stream when the one before is drained. */
    public SequentialStream(int count, IntFunction<BatchStream> open, ReadAhead readAhead) {
        if (count < 0) {
            throw new IllegalArgumentException("count is negative: " + count);
        }
        this.count = count;
        this.open = requireNonNull(open, "open is null");
        this.readAhead = readAhead;
    }

    @Override
    public Batch next() {
        while (true) {
            if (current == null) {
                if (next == count) {
                    return null;
                }
                take();
            }
            Batch batch = current.next();
            if (batch != null) {
                return batch;
            }
            closeCurrent();
        }
    }

    /** Makes stream {@code next} current: the one opened ahead, or opened now; first starts opening the ones after it. */
    private void take() {
        int index = next++;
        Opening opened = ahead.pollFirst();
        scheduled = Math.max(scheduled, next);
        if (opened != null) {
            bytesAhead -= opened.bytes();
        }
        scheduleAhead();
        long start = System.nanoTime();
        current = opened == null ? open.apply(index) : await(opened.stream());
        ReadWaits.since(start);
    }

    private void scheduleAhead() {
        if (readAhead == null) {
            return;
        }
        while (scheduled < count && ahead.size() < readAhead.streams()) {
            long bytes = readAhead.bytes().applyAsLong(scheduled);
            if (bytesAhead + bytes > readAhead.maxBytes()) {
                return;
            }
            int index = scheduled++;
            CompletableFuture<BatchStream> stream = CompletableFuture.supplyAsync(
                    () -> closed ? null : open.apply(index), READ_AHEAD_POOL);
            ahead.addLast(new Opening(stream, bytes));
            bytesAhead += bytes;
        }
    }

    private static BatchStream await(CompletableFuture<BatchStream> stream) {
        try {
            return stream.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure; // as the task's own thread would have thrown it: the error names the file
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private void closeCurrent() {
        BatchStream drained = current;
        current = null;
        if (drained != null) {
            drained.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        next = count;
        try {
            closeCurrent();
        } finally {
            closeAhead();
        }
    }

    /** Waits for each open in flight (those not started yet open nothing) and closes its stream. */
    private void closeAhead() {
        RuntimeException failure = null;
        Opening opening;
        while ((opening = ahead.pollFirst()) != null) {
            try {
                BatchStream stream = opening.stream().handle((opened, failed) -> opened).join();
                if (stream != null) {
                    stream.close();
                }
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        bytesAhead = 0;
        if (failure != null) {
            throw failure;
        }
    }
}
