package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A call of a user-defined {@link UserFunction}, named by its class; {@code jar} is the job jar the
 * class comes from, or null for a class on the nodes' own class path (an embedded cluster). Each
 * evaluation makes an instance through {@link UserClasses} and calls it row by row. Never
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
    public Col evaluate(Batch batch) {
        UserFunction function = UserClasses.newFunction(className, jar);
        Col[] inputs = new Col[args.size()];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = args.get(i).evaluate(batch);
        }
        int rows = batch.rowCount();
        Col out = Col.allocate(returnType, rows, true);
        Object[] values = new Object[inputs.length];
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < inputs.length; i++) {
                values[i] = inputs[i].get(r);
            }
            Object result;
            try {
                result = function.call(values.clone());
            } catch (RuntimeException e) {
                throw new SluiceException("user function " + name + " failed: " + e, e);
            }
            put(out, r, result);
        }
        return out;
    }

    private void put(Col out, int row, Object value) {
        if (value == null) {
            out.nulls[row] = true;
            return;
        }
        try {
            switch (returnType.kind()) {
                case INT64, INT32 -> out.longs[row] = ((Number) value).longValue();
                case FLOAT64 -> out.doubles[row] = ((Number) value).doubleValue();
                case BOOL -> out.bools[row] = (Boolean) value;
                default -> out.strings[row] = (String) value;
            }
        } catch (ClassCastException e) {
            throw new SluiceException("user function " + name + " returned a " + value.getClass().getSimpleName()
                    + ", not a value of its declared type " + returnType);
        }
    }

    @Override
    public String toString() {
        return name + "(" + args.stream().map(Object::toString).collect(Collectors.joining(", ")) + ")";
    }
}
