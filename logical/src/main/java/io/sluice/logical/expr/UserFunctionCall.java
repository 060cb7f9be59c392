package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A call of a user-defined {@link UserFunction}, named by its class; {@code jar} is the job jar the
 * class comes from, or null for a class on the nodes' own class path (an embedded cluster). Each
 * evaluation of its bound form makes an instance through {@link UserClasses} and calls it row by row. Never
 * constant-folded or pushed into a scan (the optimizer knows nothing of it but its children).
 *
 * @param name what the call prints as
 * @param returnType BIGINT, INT, DOUBLE, BOOLEAN or VARCHAR
 */
public record UserFunctionCall(String name, String className, UserJar jar, List<Expr> args, DataType returnType)
        implements Expr {
    public UserFunctionCall {
        requireNonNull(name, "name is null");
        requireNonNull(className, "className is null");
        requireNonNull(returnType, "returnType is null");
        args = List.copyOf(requireNonNull(args, "args is null"));
        switch (returnType.kind()) {
            case INT64, INT32, FLOAT64, BOOL, UTF8 -> { }
            default -> throw new SluiceException("user function " + name + " returns " + returnType
                    + "; a user function returns BIGINT, INT, DOUBLE, BOOLEAN or VARCHAR");
        }
    }

    @Override
    public DataType type(Schema input) {
        args.forEach(a -> a.type(input));
        return returnType;
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new UserFunctionCall(name, className, jar, children, returnType);
    }

    @Override
    public String toString() {
        return name + "(" + args.stream().map(Object::toString).collect(Collectors.joining(", ")) + ")";
    }
}
