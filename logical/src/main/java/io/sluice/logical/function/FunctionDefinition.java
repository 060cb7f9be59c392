package io.sluice.logical.function;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.logical.expr.Expr;
import java.util.List;

/**
 * One entry of the {@link FunctionLibrary}: what it is ({@link FunctionInfo}), the arguments it takes
 * ({@link Signature}), how a call becomes an expression ({@link Builder}) and, for a function evaluated
 * as a {@link FunctionCall}, its result type ({@link ResultType}; null for one that builds another
 * expression: a CASE, a cast, an aggregate call).
 */
public record FunctionDefinition(FunctionInfo info, Signature signature, Builder builder, ResultType result) {
    /** Builds the expression of a call whose arity is already checked. */
    @FunctionalInterface
    public interface Builder {
        Expr build(String name, List<Expr> args, CallContext context);
    }

    /** The result type of a call from its argument types (already checked against the signature). */
    @FunctionalInterface
    public interface ResultType {
        DataType type(List<DataType> types, List<Expr> args);
    }

    public FunctionDefinition {
        requireNonNull(info, "info is null");
        requireNonNull(signature, "signature is null");
        requireNonNull(builder, "builder is null");
    }
}
