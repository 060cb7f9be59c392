package io.sluice.logical.function;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * A call of a built-in scalar function of the {@link FunctionLibrary} that no other expression
 * describes: the function by its Spark name, its arguments, and the session time zone the few
 * zone-dependent functions read ("UTC" for the rest). Typing checks the arguments against the
 * function's {@link Signature}; operators evaluate it by name.
 */
public record FunctionCall(String function, List<Expr> args, String timeZone) implements Expr {
    public FunctionCall {
        requireNonNull(function, "function is null");
        args = List.copyOf(args);
        requireNonNull(timeZone, "timeZone is null");
    }

    public FunctionCall(String function, List<Expr> args) {
        this(function, args, "UTC");
    }

    /** Whether {@code expr} gives the same value for the same input: false when it calls {@code rand}. */
    public static boolean isDeterministic(Expr expr) {
        if (expr instanceof FunctionCall f && f.function.equals("rand")) {
            return false;
        }
        for (Expr child : expr.children()) {
            if (!isDeterministic(child)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public DataType type(Schema input) {
        FunctionDefinition definition = FunctionLibrary.builtIn().definition(function);
        List<DataType> types = new ArrayList<>(args.size());
        for (Expr a : args) {
            types.add(a.type(input));
        }
        definition.signature().checkTypes(function, args, types);
        return definition.result().type(types, args);
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new FunctionCall(function, children, timeZone);
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>(args.size());
        args.forEach(a -> parts.add(a.toString()));
        return function + "(" + String.join(", ", parts) + ")";
    }
}
