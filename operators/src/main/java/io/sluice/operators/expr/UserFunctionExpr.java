package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.UserClasses;
import io.sluice.logical.expr.UserFunction;
import io.sluice.logical.expr.UserFunctionCall;
import java.util.List;

/**
 * A {@link UserFunctionCall} over bound arguments: each evaluation makes an instance of the user's
 * class ({@link UserClasses}) and calls it row by row, with the arguments as Java values.
 */
public record UserFunctionExpr(UserFunctionCall source, List<PhysicalExpr> args) implements PhysicalExpr {
    public UserFunctionExpr {
        requireNonNull(source, "source is null");
        args = List.copyOf(args);
    }

    @Override
    public DataType type() {
        return source.returnType();
    }

    @Override
    public Col evaluate(Batch batch) {
        UserFunction function = UserClasses.newFunction(source.className(), source.jar());
        Col[] inputs = new Col[args.size()];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = args.get(i).evaluate(batch);
        }
        int rows = batch.rowCount();
        Col out = Col.allocate(source.returnType(), rows, true);
        Object[] values = new Object[inputs.length];
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < inputs.length; i++) {
                values[i] = inputs[i].get(r);
            }
            Object result;
            try {
                result = function.call(values.clone());
            } catch (RuntimeException e) {
                throw new SluiceException("user function " + source.name() + " failed: " + e, e);
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
            switch (source.returnType().kind()) {
                case INT64, INT32 -> out.longs[row] = ((Number) value).longValue();
                case FLOAT64 -> out.doubles[row] = ((Number) value).doubleValue();
                case BOOL -> out.bools[row] = (Boolean) value;
                default -> out.strings[row] = (String) value;
            }
        } catch (ClassCastException e) {
            throw new SluiceException("user function " + source.name() + " returned a " + value.getClass().getSimpleName()
                    + ", not a value of its declared type " + source.returnType());
        }
    }

    @Override
    public String toString() {
        return source.name() + args;
    }
}
