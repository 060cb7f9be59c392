package io.sluice.kernels;

import io.sluice.common.SluiceException;

/**
 * An integer or decimal result past its type's range. A distinct class so that an expression whose
 * mode tolerates overflow (Spark's non-ANSI mode, {@code try_add}) can recompute the batch in that
 * mode, while the strict kernels keep their tight loops free of any mode test.
 */
public final class NumericOverflowException extends SluiceException {
    public NumericOverflowException(String message) {
        super(message);
    }
}
