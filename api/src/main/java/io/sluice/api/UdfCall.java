package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unevaluable;
import io.sluice.logical.expr.UserFunction;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code udf(SomeFunction.class, type, args)} until a DataFrame uses it: then it becomes a
 * {@link io.sluice.logical.expr.UserFunctionCall} carrying the class's jar when the class must travel
 * (a submitted job's jar, or any class called from a remote session), only its name otherwise.
 */
record UdfCall(Class<? extends UserFunction> function, DataType returnType, List<Expr> args) implements Unevaluable {
    UdfCall {
        requireNonNull(function, "function is null");
        requireNonNull(returnType, "returnType is null");
        args = List.copyOf(args);
    }

    String callName() {
        return function.getSimpleName().toLowerCase(Locale.ROOT);
    }

    @Override
    public DataType type(Schema schema) {
        return returnType;
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new UdfCall(function, returnType, children);
    }

    @Override
    public RuntimeException notEvaluable() {
        return new SluiceException(this + " used outside a DataFrame");
    }

    @Override
    public String toString() {
        return callName() + args.stream().map(Expr::toString).collect(Collectors.joining(", ", "(", ")"));
    }
}
