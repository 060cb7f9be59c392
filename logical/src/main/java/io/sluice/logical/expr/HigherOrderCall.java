package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import java.util.ArrayList;
import java.util.List;

/**
 * A call of a higher-order function over arrays or maps, with Spark's semantics: its {@link Lambda}
 * arguments are applied to the elements (or the entries) of its first arguments. A NULL array or
 * map gives NULL; {@code exists} and {@code forall} use three-valued logic over the lambda's
 * values. The lambdas' parameter types follow from the other arguments' types.
 */
public record HigherOrderCall(Function function, List<Expr> args) implements Expr {
    /** The functions: the name, how many leading ARRAY (or MAP) arguments, whether over maps. */
    public enum Function {
        TRANSFORM("transform", 1, false), FILTER("filter", 1, false), EXISTS("exists", 1, false),
        FORALL("forall", 1, false), AGGREGATE("aggregate", 1, false), ZIP_WITH("zip_with", 2, false),
        MAP_FILTER("map_filter", 1, true), TRANSFORM_KEYS("transform_keys", 1, true),
        TRANSFORM_VALUES("transform_values", 1, true);

        private final String sqlName;
        private final int containers;
        private final boolean overMaps;

        Function(String sqlName, int containers, boolean overMaps) {
            this.sqlName = sqlName;
            this.containers = containers;
            this.overMaps = overMaps;
        }

        public String sqlName() {
            return sqlName;
        }

        /** How many leading arguments are the arrays (or the map) the lambdas run over. */
        public int containers() {
            return containers;
        }
    }

    public HigherOrderCall {
        requireNonNull(function, "function is null");
        args = List.copyOf(args);
        int expected = function == Function.AGGREGATE ? 3 : function.containers + 1;
        int max = function == Function.AGGREGATE ? 4 : expected;
        if (args.size() < expected || args.size() > max) {
            throw new SluiceException(function.sqlName + "() takes " + (expected == max ? expected : expected + " or " + max)
                    + " arguments, not " + args.size() + ": " + usage(function));
        }
        for (int i = 0; i < args.size(); i++) {
            boolean lambda = i >= firstLambda(function);
            if (lambda != args.get(i) instanceof Lambda) {
                throw new SluiceException(function.sqlName + "(): argument " + (i + 1) + " must " + (lambda ? "" : "not ")
                        + "be a lambda function, not " + args.get(i) + "; usage: " + usage(function));
            }
        }
        for (int i = firstLambda(function); i < args.size(); i++) {
            int arity = ((Lambda) args.get(i)).parameters().size();
            int min = minParameters(function, i);
            int maxParameters = maxParameters(function, i);
            if (arity < min || arity > maxParameters) {
                throw new SluiceException(function.sqlName + "(): the lambda function " + args.get(i) + " takes "
                        + (min == maxParameters ? String.valueOf(min) : min + " or " + maxParameters) + " argument"
                        + (maxParameters == 1 ? "" : "s") + ", not " + arity + "; usage: " + usage(function));
            }
        }
    }

    private static int firstLambda(Function function) {
        return function == Function.AGGREGATE ? 2 : function.containers;
    }

    private static int minParameters(Function function, int arg) {
        return switch (function) {
            case TRANSFORM, FILTER, EXISTS, FORALL -> 1;
            case AGGREGATE -> arg == 2 ? 2 : 1;
            case ZIP_WITH, MAP_FILTER, TRANSFORM_KEYS, TRANSFORM_VALUES -> 2;
        };
    }

    private static int maxParameters(Function function, int arg) {
        return function == Function.TRANSFORM || function == Function.FILTER ? 2 : minParameters(function, arg);
    }

    private static String usage(Function function) {
        return function.sqlName + switch (function) {
            case TRANSFORM, FILTER -> "(array, (x[, i]) -> ...)";
            case EXISTS, FORALL -> "(array, x -> ...)";
            case AGGREGATE -> "(array, zero, (acc, x) -> ...[, acc -> ...])";
            case ZIP_WITH -> "(left, right, (x, y) -> ...)";
            case MAP_FILTER, TRANSFORM_KEYS, TRANSFORM_VALUES -> "(map, (k, v) -> ...)";
        };
    }

    /** Lambda argument {@code index}. */
    public Lambda lambda(int index) {
        return (Lambda) args.get(index);
    }

    /** The index of the first lambda argument; the rest are lambdas too. */
    public int firstLambda() {
        return firstLambda(function);
    }

    /** The types of the parameters of lambda argument {@code index} over {@code input}. */
    public List<DataType> parameterTypes(int index, Schema input) {
        List<DataType> containers = new ArrayList<>(function.containers);
        for (int i = 0; i < function.containers; i++) {
            containers.add(container(i, input));
        }
        DataType first = containers.get(0);
        List<DataType> types = switch (function) {
            case TRANSFORM, FILTER -> List.of(first.elementType(), DataType.INT32);
            case EXISTS, FORALL -> List.of(first.elementType());
            case AGGREGATE -> index == 2 ? List.of(accumulatorType(input), first.elementType())
                    : List.of(accumulatorType(input));
            case ZIP_WITH -> List.of(first.elementType(), containers.get(1).elementType());
            case MAP_FILTER, TRANSFORM_KEYS, TRANSFORM_VALUES -> List.of(first.keyType(), first.valueType());
        };
        return types.subList(0, lambda(index).parameters().size());
    }

    /** The type of lambda argument {@code index}'s body over {@code input}. */
    public DataType bodyType(int index, Schema input) {
        Lambda lambda = lambda(index);
        return lambda.body().type(lambda.bodySchema(input, parameterTypes(index, input)));
    }

    /**
     * {@code aggregate}'s accumulator: of the zero's type, widened to the merge's result type when
     * that is a wider number (an integer zero over DOUBLE elements), as the merge's values must fit it.
     */
    public DataType accumulatorType(Schema input) {
        DataType zero = args.get(1).type(input);
        DataType element = container(0, input).elementType();
        Lambda merge = lambda(2);
        DataType merged = merge.body().type(merge.bodySchema(input, List.of(zero, element)));
        if (merged.equals(zero) || zero.kind() == Kind.NULL && merged.kind() == Kind.NULL) {
            return zero;
        }
        DataType common = TypeRules.commonType(zero, merged);
        if (common == null || !common.equals(merge.body().type(merge.bodySchema(input, List.of(common, element))))) {
            throw new SluiceException("aggregate(): the merge function " + merge + " gives " + merged.sqlName()
                    + ", which does not fit the accumulator's type " + zero.sqlName() + " (the zero " + args.get(1) + ")");
        }
        return common;
    }

    private DataType container(int index, Schema input) {
        DataType type = args.get(index).type(input);
        Kind wanted = function.overMaps ? Kind.MAP : Kind.LIST;
        if (type.kind() != wanted) {
            throw new SluiceException(function.sqlName + "(): argument " + (index + 1) + " must be " + (function.overMaps
                    ? "a MAP" : "an ARRAY") + ", not " + type.sqlName() + " (" + args.get(index) + "); usage: "
                    + usage(function));
        }
        return type;
    }

    @Override
    public DataType type(Schema input) {
        DataType first = container(0, input);
        for (int i = 1; i < function.containers; i++) {
            container(i, input);
        }
        return switch (function) {
            case TRANSFORM, ZIP_WITH -> DataType.list(bodyType(firstLambda(), input));
            case FILTER, EXISTS, FORALL, MAP_FILTER -> {
                DataType body = bodyType(firstLambda(), input);
                if (body.kind() != Kind.BOOL && body.kind() != Kind.NULL) {
                    throw new SluiceException(function.sqlName + "(): the lambda function " + lambda(firstLambda())
                            + " must give a BOOLEAN, not " + body.sqlName());
                }
                yield function == Function.FILTER || function == Function.MAP_FILTER ? first : DataType.BOOL;
            }
            case AGGREGATE -> args.size() == 4 ? bodyType(3, input) : accumulatorType(input);
            case TRANSFORM_KEYS -> DataType.map(bodyType(1, input), first.valueType());
            case TRANSFORM_VALUES -> DataType.map(first.keyType(), bodyType(1, input));
        };
    }

    @Override
    public List<Expr> children() {
        return args;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new HigherOrderCall(function, children);
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>(args.size());
        args.forEach(a -> parts.add(a.toString()));
        return function.sqlName + "(" + String.join(", ", parts) + ")";
    }
}
