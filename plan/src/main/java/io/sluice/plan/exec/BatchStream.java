package io.sluice.plan.exec;

/**
 * A pull stream of batches from one partition of an operator. {@link #next()} returns a batch the
 * caller owns, or null at the end. Closing releases what the stream holds, whether or not it was
 * drained.
 */
public interface BatchStream extends AutoCloseable {
    Batch next();

    @Override
    void close();

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
