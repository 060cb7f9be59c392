package io.sluice.kernels;

/**
 * A pull stream of batches from one partition of an operator. {@link #next()} returns a batch the
 * caller owns, or null at the end. Closing releases what the stream holds, whether or not it was
 * drained.
 */
public interface BatchStream extends AutoCloseable {
    Batch next();

    @Override
    void close();

    /**
     * This stream, checking before each batch whether its task was cancelled. Sources (scans) wrap
     * their streams in it, so every pipeline stops within one batch of a cancel, even operators
     * that consume their whole input before producing anything.
     */
    static BatchStream cancellable(BatchStream stream, Cancellation context) {
        return new BatchStream() {
            @Override
            public Batch next() {
                context.checkNotCancelled();
                return stream.next();
            }

            @Override
            public void close() {
                stream.close();
            }
        };
    }

    static BatchStream empty() {
        return new BatchStream() {
            @Override
            public Batch next() {
                return null;
            }

            @Override
            public void close() {
            }
        };
    }
}
