package io.sluice.kernels;

/**
 * Whether the task a stream runs in was cancelled, as {@link BatchStream#cancellable} asks it. An
 * interface here, implemented by the operator contract's {@code TaskContext}, so the batch layer
 * does not depend on the operator layer above it.
 */
public interface Cancellation {
    /** Throws (an unchecked exception) once the task was cancelled. */
    void checkNotCancelled();
}
