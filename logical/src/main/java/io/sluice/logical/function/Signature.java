package io.sluice.logical.function;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments a built-in function takes: named parameters, each of an {@link ArgKind}, the first
 * {@code required} of them mandatory; when {@code variadic}, the last one repeats and {@code required}
 * counts all mandatory arguments. It checks a call's
 * arity when the call is made and its argument types when the call is typed, with messages that name
 * the function, the argument and the types it takes.
 */
public record Signature(List<Param> params, int required, boolean variadic) {
    /** One parameter: its name as the usage line shows it, and the types it takes. */
    public record Param(String name, ArgKind kind) {
        public Param {
            requireNonNull(name, "name is null");
            requireNonNull(kind, "kind is null");
        }
    }

    public Signature {
        params = List.copyOf(params);
        if (params.isEmpty() && variadic || required < 0 || required > params.size() && !variadic) {
            throw new IllegalArgumentException("required " + required + " of " + params.size() + " parameters");
        }
    }

    /** {@code name:KIND} pairs; names after {@code required} are optional. */
    public static Signature of(int required, Object... nameKindPairs) {
        return new Signature(params(nameKindPairs), required, false);
    }

    /** As {@link #of}, the last parameter repeating (at least {@code required} arguments in all). */
    public static Signature variadic(int required, Object... nameKindPairs) {
        return new Signature(params(nameKindPairs), required, true);
    }

    private static List<Param> params(Object[] pairs) {
        List<Param> out = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.add(new Param((String) pairs[i], (ArgKind) pairs[i + 1]));
        }
        return out;
    }

    public int maxArgs() {
        return variadic ? Integer.MAX_VALUE : params.size();
    }

    /** Fails unless {@code count} arguments fit, naming {@code function} and its usage. */
    public void checkArity(String function, int count) {
        if (count >= required && count <= maxArgs()) {
            return;
        }
        String takes = required == maxArgs() ? String.valueOf(required)
                : maxArgs() == Integer.MAX_VALUE ? required + " or more" : required + " to " + maxArgs();
        throw new SluiceException(function + "() takes " + takes + " argument" + ("1".equals(takes) ? "" : "s")
                + ", not " + count + ": " + usage(function));
    }

    /** Fails at the first argument whose type its parameter does not take. */
    public void checkTypes(String function, List<Expr> args, List<DataType> types) {
        for (int i = 0; i < types.size(); i++) {
            Param p = param(i);
            if (!p.kind().accepts(types.get(i))) {
                throw new SluiceException(function + "(): argument " + (i + 1) + " (" + p.name() + ") must be "
                        + p.kind().description() + ", not " + types.get(i).sqlName() + " (" + args.get(i) + "); usage: "
                        + usage(function));
            }
        }
    }

    /** The parameter argument {@code index} binds to. */
    public Param param(int index) {
        return params.get(Math.min(index, params.size() - 1));
    }

    /** {@code name(a, b[, c])}, with {@code ...} after a repeating last parameter. */
    public String usage(String function) {
        StringBuilder s = new StringBuilder(function).append('(');
        for (int i = 0; i < params.size(); i++) {
            String sep = i == 0 ? "" : ", ";
            s.append(i >= required && !variadic ? "[" + sep + params.get(i).name() + "]" : sep + params.get(i).name());
        }
        if (variadic) {
            s.append(", ...");
        }
        return s.append(')').toString();
    }
}
