package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A query's result as its batches arrive: the coordinator's producer fetches the result stage's
 * blocks as their tasks finish and {@link #offer}s their batches; the reader takes them with
 * {@link #next}. The buffer between them holds at most {@code bufferBytes} of Arrow buffers (and
 * always one batch): a producer with a full buffer waits, so a slow reader keeps the coordinator from
 * fetching ahead (back-pressure), and the rest of the result waits in the workers' shuffle files.
 * Closing the stream before its end cancels the query and waits until its producer has stopped and
 * freed what it held.
 */
public final class ResultStream implements AutoCloseable {
    /** How long {@link #close} waits for the producer to stop after cancelling it. */
    private static final long CLOSE_WAIT_SECONDS = 60;

    private final Schema schema;
    private final long bufferBytes;
    private final ArrayDeque<Batch> queue = new ArrayDeque<>();
    /** Completed when the producer has stopped and released its job (its shuffle files, its listing). */
    private final CompletableFuture<Void> producerStopped = new CompletableFuture<>();
    private Runnable cancel = () -> { };
    private long queuedBytes;
    private long peakQueuedBytes;
    private boolean offered;
    private boolean finished;
    private boolean closed;
    private RuntimeException failure;

    /**
     * @param bufferBytes Arrow bytes the buffer between producer and reader may hold (beyond one batch)
     */
    public ResultStream(Schema schema, long bufferBytes) {
        this.schema = requireNonNull(schema, "schema is null");
        if (bufferBytes < 0) {
            throw new IllegalArgumentException("negative buffer size " + bufferBytes);
        }
        this.bufferBytes = bufferBytes;
    }

    /** A stream of a result already encoded (a status message, a statement's answer). */
    public static ResultStream ofIpc(byte[] ipc, BufferAllocator allocator) {
        ResultStream stream = new ResultStream(ArrowIpc.schema(ipc, allocator), Long.MAX_VALUE);
        List<Batch> batches = ArrowIpc.decode(ipc, allocator);
        batches.forEach(stream::offer);
        stream.finish();
        stream.producerStopped();
        return stream;
    }

    public Schema schema() {
        return schema;
    }

    /** What closing the stream early does to its query (cancels it); set by the producer before it starts. */
    void onCancel(Runnable action) {
        this.cancel = requireNonNull(action, "action is null");
    }

    /**
     * Hands a batch to the reader, waiting while the buffer is full. False when the reader closed
     * the stream: the batch is then closed here and the producer should stop.
     */
    boolean offer(Batch batch) {
        return offer(batch, () -> false);
    }

    /**
     * The same, giving up (false, the batch closed) when {@code stop} turns true while the buffer is
     * full: a query cancelled while its reader is slow stops without waiting for it.
     */
    boolean offer(Batch batch, java.util.function.BooleanSupplier stop) {
        long size = sizeOf(batch);
        synchronized (this) {
            while (!closed && !queue.isEmpty() && queuedBytes + size > bufferBytes && !stop.getAsBoolean()) {
                waitQuietly();
            }
            if (!closed && !queue.isEmpty() && queuedBytes + size > bufferBytes) {
                batch.close();
                return false;
            }
            if (!closed) {
                queue.add(batch);
                queuedBytes += size;
                peakQueuedBytes = Math.max(peakQueuedBytes, queuedBytes);
                offered = true;
                notifyAll();
                return true;
            }
        }
        batch.close();
        return false;
    }

    /** Whether any batch was handed over yet: a query that has shown rows cannot run again from the start. */
    synchronized boolean offeredAny() {
        return offered;
    }

    /** Whether the reader closed the stream. */
    synchronized boolean isClosed() {
        return closed;
    }

    /** Every batch was offered. */
    synchronized void finish() {
        finished = true;
        notifyAll();
    }

    /** The query failed; the reader gets {@code error} after the batches offered before it. */
    synchronized void fail(RuntimeException error) {
        if (!finished && failure == null) {
            failure = requireNonNull(error, "error is null");
        }
        notifyAll();
    }

    /** The producer stopped and released its job; called last, once, by the producer. */
    void producerStopped() {
        producerStopped.complete(null);
    }

    /**
     * The next batch (the caller closes it), or null at the end of the result; waits until one
     * arrives. Throws the query's failure once the batches before it were read.
     */
    public Batch next() {
        synchronized (this) {
            while (queue.isEmpty() && !finished && failure == null && !closed) {
                waitQuietly();
            }
            if (closed) {
                throw new IllegalStateException("the result stream is closed");
            }
            Batch batch = queue.poll();
            if (batch != null) {
                queuedBytes -= sizeOf(batch);
                notifyAll();
                return batch;
            }
            if (failure != null) {
                throw failure;
            }
            return null;
        }
    }

    /**
     * Waits until the first batch is ready or the result ended, so that a query failing before
     * any row is an error answer (an HTTP 400), not a broken stream; throws that failure.
     */
    public void awaitFirst() {
        synchronized (this) {
            while (queue.isEmpty() && !finished && failure == null && !closed) {
                waitQuietly();
            }
            if (queue.isEmpty() && failure != null) {
                throw failure;
            }
        }
    }

    /** The most Arrow bytes the buffer held at once (what a slow reader made the coordinator keep). */
    public synchronized long peakBufferedBytes() {
        return peakQueuedBytes;
    }

    /**
     * Ends reading: an unfinished query is cancelled; returns once its producer stopped (its
     * shuffle files removed) and every buffered batch is freed.
     */
    @Override
    public void close() {
        boolean early;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            early = !finished && failure == null;
            notifyAll();
        }
        if (early) {
            cancel.run();
        }
        try {
            producerStopped.get(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new SluiceException("the result's query did not stop within " + CLOSE_WAIT_SECONDS + " s of closing");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            // the producer completes normally; nothing to report
        } finally {
            synchronized (this) {
                queue.forEach(Batch::close);
                queue.clear();
                queuedBytes = 0;
            }
        }
    }

    private void waitQuietly() {
        try {
            wait(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while waiting for the query's result");
        }
    }

    /** The Arrow bytes a batch holds. */
    static long sizeOf(Batch batch) {
        return batch.root().getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum();
    }
}
