package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.DataType;
import io.sluice.common.types.MalformedValueException;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import io.sluice.kernels.SparkErrors;

/**
 * CAST of a bound input. Text that spells no value of {@code type} is an error in the strict mode,
 * Spark's {@code CAST_INVALID_INPUT} in ANSI mode, and NULL in Spark's non-ANSI mode and for
 * {@code try_cast}: only a batch holding such text takes the row-by-row path.
 */
public record CastExpr(PhysicalExpr input, DataType type, ArithmeticMode mode) implements PhysicalExpr {
    public CastExpr {
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
        requireNonNull(mode, "mode is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        Col c = input.evaluate(batch);
        try {
            return Kernels.cast(c, type);
        } catch (MalformedValueException e) {
            if (mode == ArithmeticMode.STRICT) {
                throw e;
            }
            if (mode == ArithmeticMode.ANSI || c.type.kind() != DataType.Kind.UTF8) {
                throw SparkErrors.castInvalidInput(e.value(), c.type, type);
            }
            return Kernels.cast(withoutMalformed(c), type);
        }
    }

    /** Text column {@code c} with every text that does not cast to {@code type} made NULL. */
    private Col withoutMalformed(Col c) {
        boolean[] nulls = c.nulls == null ? new boolean[c.length] : c.nulls.clone();
        for (int i = 0; i < c.length; i++) {
            if (!nulls[i]) {
                try {
                    Kernels.cast(Col.ofStrings(new String[] {c.strings[i]}, null), type);
                } catch (MalformedValueException e) {
                    nulls[i] = true;
                }
            }
        }
        return Col.ofStrings(c.strings, nulls);
    }

    @Override
    public String toString() {
        return (mode == ArithmeticMode.TRY ? "TRY_CAST(" : "CAST(") + input + " AS " + type + ")";
    }
}
