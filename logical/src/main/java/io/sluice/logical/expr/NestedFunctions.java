package io.sluice.logical.expr;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.ScalarFunction.Function;
import java.util.ArrayList;
import java.util.List;

/**
 * The type rules of the functions over nested values, as Spark has them: {@code s.f} (GET_FIELD,
 * the field name a constant second argument), {@code a[i]} (ITEM: a list's element at a 0-based
 * index, a map's value at a key), {@code element_at(a, i)} (a list's element at a 1-based index,
 * from the end when negative; a map's value at a key), {@code size}/{@code cardinality} (INTEGER), and
 * the constructors {@code struct(...)} (fields named after column arguments, else
 * {@code col1, col2, ...}), {@code named_struct(name, value, ...)}, {@code array(...)} and
 * {@code map(key, value, ...)} (elements, keys and values of one common type each). An index past
 * either end gives NULL, as DuckDB and Spark outside ANSI mode do.
 */
public final class NestedFunctions {
    private NestedFunctions() {
    }

    /**
     * {@code expr} with each column name that names no column but a field path of one
     * ({@code s.a.b}: column {@code s}, fields {@code a}, {@code b}) read as that path, as Spark's
     * {@code col("s.a")}: the longest prefix that is a column wins.
     */
    public static Expr resolveFieldPaths(Expr expr, Schema schema) {
        return Exprs.transformUp(expr, e -> {
            if (!(e instanceof Column c) || schema.indexOf(c.column()) >= 0) {
                return e;
            }
            String name = c.column();
            for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
                int index = schema.indexOf(name.substring(0, dot));
                if (index >= 0 && schema.field(index).type().kind() == Kind.STRUCT) {
                    Expr out = new Column(schema.field(index).name());
                    for (String field : name.substring(dot + 1).split("\\.")) {
                        out = new ScalarFunction(Function.GET_FIELD, List.of(out, Literal.of(field)));
                    }
                    return out;
                }
            }
            return e;
        });
    }

    static void checkArguments(Function function, List<Expr> args) {
        switch (function) {
            case GET_FIELD -> constantName(args.get(1), "a field access");
            case NAMED_STRUCT -> {
                if (args.size() % 2 != 0) {
                    throw new SluiceException("named_struct() takes pairs of a name and a value, not " + args.size()
                            + " arguments");
                }
                for (int i = 0; i < args.size(); i += 2) {
                    constantName(args.get(i), "named_struct()");
                }
            }
            case MAP -> {
                if (args.size() % 2 != 0) {
                    throw new SluiceException("map() takes pairs of a key and a value, not " + args.size() + " arguments");
                }
            }
            default -> {
            }
        }
    }

    private static String constantName(Expr e, String where) {
        if (e instanceof Literal l && l.value() instanceof String name) {
            return name;
        }
        throw new SluiceException(where + " needs a constant field name, not " + e);
    }

    /** The field a GET_FIELD reads, by name. */
    static String fieldName(ScalarFunction f) {
        return (String) ((Literal) f.args().get(1)).value();
    }

    /** Whether a GET_FIELD reads a path of fields from a column ({@code s.a.b}). */
    static boolean isFieldPath(ScalarFunction f) {
        Expr base = f.args().get(0);
        return base instanceof Column || (base instanceof ScalarFunction g && g.function() == Function.GET_FIELD && isFieldPath(g));
    }

    /** The index of the field a GET_FIELD reads in its struct type; fails listing the fields there are. */
    public static int fieldIndex(ScalarFunction f, DataType struct) {
        String name = fieldName(f);
        int index = struct.fieldIndex(name);
        if (index < 0) {
            throw new SluiceException("no field '" + name + "' in " + f.args().get(0) + " of type " + struct.sqlName());
        }
        return index;
    }

    static DataType type(ScalarFunction f, List<DataType> types) {
        List<Expr> args = f.args();
        DataType first = types.get(0);
        return switch (f.function()) {
            case GET_FIELD -> {
                if (first.kind() != Kind.STRUCT) {
                    throw new SluiceException("cannot read field '" + fieldName(f) + "' of " + args.get(0) + ": it is "
                            + first.sqlName() + ", not a STRUCT");
                }
                yield first.fields().get(fieldIndex(f, first)).type();
            }
            case ITEM, ELEMENT_AT -> {
                String what = f.function() == Function.ITEM ? args.get(0) + "[...]" : "element_at()";
                if (first.kind() == Kind.LIST) {
                    if (!types.get(1).isIntegral() && types.get(1).kind() != Kind.NULL) {
                        throw new SluiceException(what + " needs an integer index into " + args.get(0) + ", not "
                                + types.get(1).sqlName());
                    }
                    yield first.elementType();
                }
                if (first.kind() == Kind.MAP) {
                    DataType key = types.get(1);
                    if (key.kind() != Kind.NULL && key.kind() != first.keyType().kind()
                            && !(key.isNumeric() && first.keyType().isNumeric())) {
                        throw new SluiceException(what + " needs a " + first.keyType().sqlName() + " key into "
                                + args.get(0) + ", not " + key.sqlName());
                    }
                    yield first.valueType();
                }
                throw new SluiceException(what + " needs an ARRAY or a MAP, not " + first.sqlName() + " (" + args.get(0) + ")");
            }
            case SIZE -> {
                if (first.kind() != Kind.LIST && first.kind() != Kind.MAP) {
                    throw new SluiceException("size() needs an ARRAY or a MAP, not " + first.sqlName() + " (" + args.get(0) + ")");
                }
                yield DataType.INT32;
            }
            case STRUCT -> {
                List<Field> fields = new ArrayList<>(args.size());
                for (int i = 0; i < args.size(); i++) {
                    String name = args.get(i) instanceof Column c ? c.column() : "col" + (i + 1);
                    fields.add(new Field(name.substring(name.lastIndexOf('.') + 1), types.get(i)));
                }
                yield DataType.struct(fields);
            }
            case NAMED_STRUCT -> {
                List<Field> fields = new ArrayList<>(args.size() / 2);
                for (int i = 0; i < args.size(); i += 2) {
                    fields.add(new Field(constantName(args.get(i), "named_struct()"), types.get(i + 1)));
                }
                yield DataType.struct(fields);
            }
            case ARRAY -> DataType.list(common(types, 0, 1, "array() elements"));
            case MAP -> DataType.map(common(types, 0, 2, "map() keys"), common(types, 1, 2, "map() values"));
            default -> throw new IllegalStateException("not a nested function: " + f.function());
        };
    }

    private static DataType common(List<DataType> types, int from, int step, String what) {
        DataType out = DataType.NULL;
        for (int i = from; i < types.size(); i += step) {
            DataType next = TypeRules.commonType(out, types.get(i));
            if (next == null) {
                throw new SluiceException(what + " have no common type: " + out.sqlName() + " and " + types.get(i).sqlName());
            }
            out = next;
        }
        return out.kind() == Kind.NULL ? DataType.INT32 : out;
    }
}
