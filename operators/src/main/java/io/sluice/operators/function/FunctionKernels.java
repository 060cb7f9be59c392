package io.sluice.operators.function;

import io.sluice.logical.function.CallContext;
import io.sluice.logical.function.FunctionCall;

/** The kernel that computes a {@link FunctionCall}, by its function's name. */
public final class FunctionKernels {
    private FunctionKernels() {
    }

    /** A new kernel for {@code call} (kernels may keep per-task state: bind one per use). */
    public static FunctionKernel of(FunctionCall call) {
        String name = call.function();
        FunctionKernel kernel = StringKernels.of(name);
        if (kernel == null) {
            kernel = RegexKernels.of(name);
        }
        if (kernel == null) {
            kernel = DateTimeKernels.of(name, CallContext.zone(call.timeZone()));
        }
        if (kernel == null) {
            kernel = MathKernels.of(name);
        }
        if (kernel == null) {
            throw new IllegalArgumentException("no kernel for function " + name);
        }
        return kernel;
    }
}
