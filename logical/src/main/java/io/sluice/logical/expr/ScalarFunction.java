package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The built-in scalar functions over strings and numbers, with DuckDB's semantics: a NULL
 * argument gives NULL (except {@code concat}, which skips NULLs), string positions and lengths count
 * characters (code points) from 1, {@code round} rounds half away from zero. Evaluated row by row
 * over a batch by its bound form.
 */
public record ScalarFunction(Function function, List<Expr> args) implements Expr {
    /** The functions, each with its SQL name and how many arguments it takes. */
    public enum Function {
        UPPER("upper", 1, 1), LOWER("lower", 1, 1), TRIM("trim", 1, 1), LTRIM("ltrim", 1, 1), RTRIM("rtrim", 1, 1),
        LENGTH("length", 1, 1), CONCAT("concat", 1, Integer.MAX_VALUE), CONCAT_OPERATOR("||", 2, 2),
        STRPOS("strpos", 2, 2), REPLACE("replace", 3, 3), STARTS_WITH("starts_with", 2, 2),
        ABS("abs", 1, 1), ROUND("round", 1, 2), FLOOR("floor", 1, 1), CEIL("ceil", 1, 1),
        // nested values (see NestedFunctions)
        GET_FIELD("get_field", 2, 2), ITEM("[]", 2, 2), ELEMENT_AT("element_at", 2, 2), SIZE("size", 1, 1),
        STRUCT("struct", 1, Integer.MAX_VALUE), NAMED_STRUCT("named_struct", 2, Integer.MAX_VALUE),
        ARRAY("array", 1, Integer.MAX_VALUE), MAP("map", 2, Integer.MAX_VALUE);

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

        /** A function that reads or builds nested values ({@link NestedFunctions}). */
        public boolean isNested() {
            return ordinal() >= GET_FIELD.ordinal();
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
        if (function.isNested()) {
            NestedFunctions.checkArguments(function, args);
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
            case GET_FIELD, ITEM, ELEMENT_AT, SIZE, STRUCT, NAMED_STRUCT, ARRAY, MAP -> NestedFunctions.type(this, types);
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

    /** The digits {@code round} keeps: its constant second argument, 0 without one. */
    public int digits() {
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
    public String name() {
        // s.a and s.b.c are named a and c, as Spark and DuckDB name them; ls[0].q keeps its text
        return function == Function.GET_FIELD && NestedFunctions.isFieldPath(this) ? NestedFunctions.fieldName(this) : toString();
    }

    @Override
    public String toString() {
        if (function == Function.GET_FIELD) {
            return args.get(0) + "." + NestedFunctions.fieldName(this);
        }
        if (function == Function.ITEM) {
            return args.get(0) + "[" + args.get(1) + "]";
        }
        if (function == Function.CONCAT_OPERATOR) {
            return "(" + args.get(0) + " || " + args.get(1) + ")";
        }
        List<String> parts = new ArrayList<>();
        args.forEach(a -> parts.add(a.toString()));
        return function.sqlName + "(" + String.join(", ", parts) + ")";
    }

    /** String functions that give a value for every string (NULL for NULL). */
    private static final Set<Function> TOTAL = EnumSet.of(Function.UPPER, Function.LOWER, Function.TRIM,
            Function.LTRIM, Function.RTRIM, Function.LENGTH, Function.CONCAT, Function.CONCAT_OPERATOR,
            Function.STRPOS, Function.REPLACE, Function.STARTS_WITH);

    /** Only the string functions of {@link #TOTAL} give a value for every argument; others may fail. */
    @Override
    public boolean mayFailItself() {
        return !TOTAL.contains(function);
    }
}
