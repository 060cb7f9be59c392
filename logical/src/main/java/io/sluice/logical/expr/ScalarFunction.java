package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Col;
import io.sluice.kernels.ValueFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The built-in scalar functions over strings and numbers, with DuckDB's semantics: a NULL
 * argument gives NULL (except {@code concat}, which skips NULLs), string positions and lengths count
 * characters (code points) from 1, {@code round} rounds half away from zero. Evaluated row by row
 * over a batch.
 */
public record ScalarFunction(Function function, List<Expr> args) implements OfChildValues {
    /** The functions, each with its SQL name and how many arguments it takes. */
    public enum Function {
        UPPER("upper", 1, 1), LOWER("lower", 1, 1), TRIM("trim", 1, 1), LTRIM("ltrim", 1, 1), RTRIM("rtrim", 1, 1),
        LENGTH("length", 1, 1), CONCAT("concat", 1, Integer.MAX_VALUE), CONCAT_OPERATOR("||", 2, 2),
        STRPOS("strpos", 2, 2), REPLACE("replace", 3, 3), STARTS_WITH("starts_with", 2, 2),
        ABS("abs", 1, 1), ROUND("round", 1, 2), FLOOR("floor", 1, 1), CEIL("ceil", 1, 1);

        private final String sqlName;
        private final int minArgs;
        private final int maxArgs;

        Function(String sqlName, int minArgs, int maxArgs) {
            this.sqlName = sqlName;
            this.minArgs = minArgs;
            this.maxArgs = maxArgs;
        }

        public String sqlName() {
            return sqlName;
        }
    }

    public ScalarFunction {
        requireNonNull(function, "function is null");
        args = List.copyOf(args);
        if (args.size() < function.minArgs || args.size() > function.maxArgs) {
            throw new SluiceException(function.sqlName + "() takes " + (function.minArgs == function.maxArgs
                    ? String.valueOf(function.minArgs) : function.minArgs + (function.maxArgs == Integer.MAX_VALUE
                    ? " or more" : " to " + function.maxArgs)) + " argument" + (function.maxArgs == 1 ? "" : "s")
                    + ", not " + args.size());
        }
        if (function == Function.ROUND && args.size() == 2 && !(args.get(1) instanceof Literal)) {
            throw new SluiceException("round(x, digits) needs a constant number of digits, not " + args.get(1));
        }
    }

    @Override
    public DataType type(Schema input) {
        List<DataType> types = new ArrayList<>();
        for (Expr a : args) {
            types.add(a.type(input));
        }
        return switch (function) {
            case UPPER, LOWER, TRIM, LTRIM, RTRIM, REPLACE -> {
                requireAll(types, Kind.UTF8);
                yield DataType.UTF8;
            }
            case CONCAT, CONCAT_OPERATOR -> DataType.UTF8; // any type, as text
            case LENGTH, STRPOS -> {
                requireAll(types, Kind.UTF8);
                yield DataType.INT64;
            }
            case STARTS_WITH -> {
                requireAll(types, Kind.UTF8);
                yield DataType.BOOL;
            }
            case ABS -> numeric(types.get(0));
            case FLOOR, CEIL -> {
                DataType t = numeric(types.get(0));
                yield t.kind() == Kind.DECIMAL ? DataType.decimal(t.precision(), 0) : t;
            }
            case ROUND -> {
                DataType t = numeric(types.get(0));
                yield t.kind() == Kind.DECIMAL ? DataType.decimal(t.precision(), Math.max(0, Math.min(t.scale(),
                        digits()))) : t;
            }
        };
    }

    private void requireAll(List<DataType> types, Kind kind) {
        for (int i = 0; i < types.size(); i++) {
            Kind k = types.get(i).kind();
            if (k != kind && k != Kind.NULL) {
                throw new SluiceException(function.sqlName + "() needs " + kind.name().toLowerCase(Locale.ROOT)
                        + " arguments, not " + types.get(i) + " (" + args.get(i) + ")");
            }
        }
    }

    private DataType numeric(DataType t) {
        if (!t.isNumeric() && t.kind() != Kind.NULL) {
            throw new SluiceException(function.sqlName + "() needs a number, not " + t + " (" + args.get(0) + ")");
        }
        return t.kind() == Kind.NULL ? DataType.FLOAT64 : t;
    }

    private int digits() {
        if (args.size() < 2) {
            return 0;
        }
        Object v = ((Literal) args.get(1)).value();
        if (!(v instanceof Long l) || l != l.intValue()) {
            throw new SluiceException("round(x, digits) needs a whole number of digits, not " + args.get(1));
        }
        return l.intValue();
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new ScalarFunction(function, children);
    }

    @Override
    public Col apply(List<Col> cols, DataType out) {
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
        DataType t = in.type;
        if (t.kind() == Kind.FLOAT64) {
            double v = in.doubles[row];
            result.doubles[row] = switch (function) {
                case ABS -> Math.abs(v);
                case FLOOR -> Math.floor(v);
                case CEIL -> Math.ceil(v);
                default -> roundHalfAway(v, digits());
            };
            return;
        }
        long v = in.requireLongs("the argument of " + function.sqlName + "()")[row];
        int scale = t.kind() == Kind.DECIMAL ? t.scale() : 0;
        int outScale = result.type.kind() == Kind.DECIMAL ? result.type.scale() : 0;
        long unit = TypeRules.pow10(scale - outScale); // how many input units make one output unit
        result.longs[row] = switch (function) {
            case ABS -> Math.abs(v);
            case FLOOR -> Math.floorDiv(v, unit);
            case CEIL -> -Math.floorDiv(-v, unit);
            default -> {
                int digits = digits();
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

    @Override
    public String toString() {
        if (function == Function.CONCAT_OPERATOR) {
            return "(" + args.get(0) + " || " + args.get(1) + ")";
        }
        List<String> parts = new ArrayList<>();
        args.forEach(a -> parts.add(a.toString()));
        return function.sqlName + "(" + String.join(", ", parts) + ")";
    }
}
