package io.sluice.operators.memory;

import io.sluice.common.SluiceException;

/**
 * A task could not get the memory it needs, even after spilling what it could. The message names
 * the operator, what it and its task hold, and the worker's limit. It is a {@link SluiceException}
 * because running the same task again on a worker of the same size would fail the same way: the
 * job fails once, at once, and the worker goes on serving other tasks.
 */
public final class MemoryLimitException extends SluiceException {
    public MemoryLimitException(String message) {
        super(message);
    }
}
