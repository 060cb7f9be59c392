package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unevaluable;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code callFunction("upper", c)}: a function by its SQL (Spark) name, resolved through the SQL front
 * end's function library when a DataFrame uses it, once its arguments' types are known.
 */
record NamedCall(String function, List<Expr> args, boolean distinct) implements Unevaluable {
    NamedCall {
        requireNonNull(function, "function is null");
        args = List.copyOf(args);
    }

    @Override
    public DataType type(Schema schema) {
        throw notEvaluable();
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new NamedCall(function, children, distinct);
    }

    @Override
    public RuntimeException notEvaluable() {
        return new SluiceException(this + " used outside a DataFrame");
    }

    @Override
    public String toString() {
        return function + args.stream().map(Expr::toString).collect(Collectors.joining(", ", distinct ? "(DISTINCT " : "(", ")"));
    }
}
