package io.sluice.operators.function;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.util.List;

/**
 * Computes one built-in function over a batch: one value per row from the arguments' values. One
 * instance per bound expression, used by one task thread, so a kernel may keep state across
 * batches (a compiled pattern, a digest, a random generator).
 */
@FunctionalInterface
public interface FunctionKernel {
    /** The values of {@code rows} rows, of {@code type}, given each argument's values (each {@code rows} long). */
    Col apply(List<Col> args, int rows, DataType type);
}
