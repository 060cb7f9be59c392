package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Col;
import io.sluice.kernels.ValueFormat;
import io.sluice.logical.expr.ScalarFunction.Function;
import io.sluice.logical.expr.ScalarFunction;
import java.util.List;
import java.util.Locale;

/** The values of a built-in {@link ScalarFunction}, row by row over its arguments' values, with its semantics. */
record ScalarFunctionEvaluator(ScalarFunction source) implements ChildValuesFunction {
    ScalarFunctionEvaluator {
        requireNonNull(source, "source is null");
    }

    @Override
    public Col apply(List<Col> cols, DataType out) {
        Function function = source.function();
        int n = cols.get(0).length;
        Col result = Col.allocate(out, n, true);
        for (int row = 0; row < n; row++) {
            boolean anyNull = false;
            for (Col c : cols) {
                anyNull |= c.isNull(row);
            }
            if (anyNull && function != Function.CONCAT) {
                result.nulls[row] = true;
                continue;
            }
            switch (function) {
                case UPPER -> result.strings[row] = cols.get(0).strings[row].toUpperCase(Locale.ROOT);
                case LOWER -> result.strings[row] = cols.get(0).strings[row].toLowerCase(Locale.ROOT);
                case TRIM -> result.strings[row] = cols.get(0).strings[row].strip();
                case LTRIM -> result.strings[row] = cols.get(0).strings[row].stripLeading();
                case RTRIM -> result.strings[row] = cols.get(0).strings[row].stripTrailing();
                case LENGTH -> result.longs[row] = cols.get(0).strings[row].codePointCount(0,
                        cols.get(0).strings[row].length());
                case CONCAT, CONCAT_OPERATOR -> {
                    StringBuilder s = new StringBuilder();
                    for (Col c : cols) {
                        if (!c.isNull(row)) {
                            s.append(ValueFormat.format(c, row));
                        }
                    }
                    result.strings[row] = s.toString();
                }
                case STRPOS -> {
                    String s = cols.get(0).strings[row];
                    int at = s.indexOf(cols.get(1).strings[row]);
                    result.longs[row] = at < 0 ? 0 : s.codePointCount(0, at) + 1;
                }
                case REPLACE -> result.strings[row] = cols.get(0).strings[row].replace(cols.get(1).strings[row],
                        cols.get(2).strings[row]);
                case STARTS_WITH -> result.bools[row] = cols.get(0).strings[row].startsWith(cols.get(1).strings[row]);
                case ABS, FLOOR, CEIL, ROUND -> numericRow(cols.get(0), row, result);
            }
        }
        return result;
    }

    private void numericRow(Col in, int row, Col result) {
        Function function = source.function();
        DataType t = in.type;
        if (t.kind() == Kind.FLOAT64) {
            double v = in.doubles[row];
            result.doubles[row] = switch (function) {
                case ABS -> Math.abs(v);
                case FLOOR -> Math.floor(v);
                case CEIL -> Math.ceil(v);
                default -> roundHalfAway(v, source.digits());
            };
            return;
        }
        long v = in.requireLongs("the argument of " + function.sqlName() + "()")[row];
        int scale = t.kind() == Kind.DECIMAL ? t.scale() : 0;
        int outScale = result.type.kind() == Kind.DECIMAL ? result.type.scale() : 0;
        long unit = TypeRules.pow10(scale - outScale); // how many input units make one output unit
        result.longs[row] = switch (function) {
            case ABS -> Math.abs(v);
            case FLOOR -> Math.floorDiv(v, unit);
            case CEIL -> -Math.floorDiv(-v, unit);
            default -> {
                int digits = source.digits();
                if (digits >= scale) {
                    yield v;
                }
                long step = TypeRules.pow10(scale - digits); // input units per rounding step
                long steps = (Math.abs(v) + step / 2) / step; // half away from zero
                yield Long.signum(v) * steps * TypeRules.pow10(Math.max(0, -digits));
            }
        };
    }

    private static double roundHalfAway(double v, int digits) {
        double factor = Math.pow(10, digits);
        return Math.signum(v) * Math.floor(Math.abs(v) * factor + 0.5) / factor;
    }
}
