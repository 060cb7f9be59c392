package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A window function call: {@code function(arguments) OVER (PARTITION BY partitionBy ORDER BY orderBy
 * frame)}. Only a {@code Window} plan node computes it; evaluating it as a scalar is a planning bug.
 * The frame is the SQL default when none is written ({@link #defaultFrame}); functions that ignore
 * frames (ranking, {@code lag}/{@code lead}) get the default whatever was written, so that equal
 * calls compare equal.
 * Constant arguments ({@code ntile}'s bucket count, {@code lag}'s offset) must be integer literals.
 *
 * <p>With {@code ignoreNulls}, {@code lag}, {@code lead}, {@code first_value}, {@code last_value}
 * and {@code nth_value} count only rows whose value is not NULL.
 *
 * <p>Children, for traversals: the arguments, then the PARTITION BY expressions, then the ORDER BY
 * expressions.
 */
public record WindowCall(WindowFunction function, List<Expr> arguments, List<Expr> partitionBy, List<SortKey> orderBy,
        WindowFrame frame, boolean ignoreNulls) implements Unevaluable {
    /** A call that respects NULLs (the SQL default). */
    public WindowCall(WindowFunction function, List<Expr> arguments, List<Expr> partitionBy, List<SortKey> orderBy,
            WindowFrame frame) {
        this(function, arguments, partitionBy, orderBy, frame, false);
    }

    public WindowCall {
        requireNonNull(function, "function is null");
        requireNonNull(frame, "frame is null");
        arguments = List.copyOf(arguments);
        partitionBy = List.copyOf(partitionBy);
        orderBy = List.copyOf(orderBy);
        function.checkArity(arguments.size());
        if (ignoreNulls && !function.picksAValue()) {
            throw new SluiceException("IGNORE NULLS applies to lag, lead, first_value, last_value and nth_value, not "
                    + function.sqlName() + "()");
        }
        if (!function.usesFrame()) {
            frame = defaultFrame(orderBy);
        }
        if (function == WindowFunction.NTILE) {
            long buckets = constant(arguments, 0, "ntile() bucket count");
            if (buckets <= 0) {
                throw new SluiceException("ntile() needs a positive bucket count, not " + buckets);
            }
        }
        if (function == WindowFunction.NTH_VALUE) {
            long n = constant(arguments, 1, "nth_value() position");
            if (n <= 0) {
                throw new SluiceException("nth_value() needs a positive position, not " + n);
            }
        }
        if ((function == WindowFunction.LAG || function == WindowFunction.LEAD) && arguments.size() > 1) {
            constant(arguments, 1, function.sqlName() + "() offset");
        }
        if (frame.rangeOffsets() && (orderBy.size() != 1)) {
            throw new SluiceException("a RANGE frame with an offset needs exactly one ORDER BY key, not "
                    + orderBy.size() + ": " + frame);
        }
    }

    /** The SQL default frame: up to the current row's peers with ORDER BY, the whole partition without. */
    public static WindowFrame defaultFrame(List<SortKey> orderBy) {
        return orderBy.isEmpty() ? WindowFrame.WHOLE_PARTITION : WindowFrame.RANGE_TO_CURRENT;
    }

    private static long constant(List<Expr> arguments, int index, String what) {
        if (arguments.get(index) instanceof Literal l && l.value() instanceof Long value) {
            return value;
        }
        throw new SluiceException(what + " must be an integer constant, not " + arguments.get(index));
    }

    /** {@code lag}/{@code lead}'s row offset (1 when not given); {@code ntile}'s bucket count; {@code nth_value}'s position. */
    public long constantArgument() {
        return switch (function) {
            case LAG, LEAD -> arguments.size() > 1 ? constant(arguments, 1, "offset") : 1;
            case NTILE -> constant(arguments, 0, "bucket count");
            case NTH_VALUE -> constant(arguments, 1, "position");
            default -> throw new IllegalStateException(function + " has no constant argument");
        };
    }

    /** Whether two calls can be computed by one window operator: same partitioning and order. */
    public boolean sameWindow(WindowCall other) {
        return partitionBy.equals(other.partitionBy) && orderBy.equals(other.orderBy);
    }

    @Override
    public DataType type(Schema input) {
        List<DataType> types = new ArrayList<>(arguments.size());
        for (Expr a : arguments) {
            if (Exprs.containsWindow(a)) {
                throw new SluiceException("window function calls cannot be nested: " + this);
            }
            types.add(a.type(input));
        }
        for (Expr p : partitionBy) {
            TypeRules.requireKeyable("a window partition key", p, p.type(input));
        }
        for (SortKey k : orderBy) {
            DataType t = k.expr().type(input);
            TypeRules.requireKeyable("a window ORDER BY key", k.expr(), t);
            if (frame.rangeOffsets() && !(t.isNumeric() || t.kind() == DataType.Kind.DATE32)) {
                throw new SluiceException("a RANGE frame with an offset needs a numeric or date ORDER BY key, not "
                        + k.expr() + " of type " + t);
            }
        }
        DataType result = function.resultType(types);
        if (function == WindowFunction.LAG || function == WindowFunction.LEAD) {
            if (types.size() == 3 && types.get(0).kind() != DataType.Kind.NULL) {
                new Cast(arguments.get(2), result).type(input); // the default must convert to the value's type
            }
        }
        return result;
    }

    @Override
    public List<Expr> children() {
        List<Expr> out = new ArrayList<>(arguments);
        out.addAll(partitionBy);
        orderBy.forEach(k -> out.add(k.expr()));
        return out;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        int a = arguments.size();
        int p = partitionBy.size();
        List<SortKey> keys = new ArrayList<>(orderBy.size());
        for (int i = 0; i < orderBy.size(); i++) {
            SortKey k = orderBy.get(i);
            keys.add(new SortKey(children.get(a + p + i), k.ascending(), k.nullsFirst()));
        }
        return new WindowCall(function, children.subList(0, a), children.subList(a, a + p), keys, frame, ignoreNulls);
    }

    @Override
    public RuntimeException notEvaluable() {
        return new IllegalStateException("window function " + this + " evaluated outside a window operator");
    }

    @Override
    public String toString() {
        String args = function == WindowFunction.COUNT_STAR ? "*"
                : arguments.stream().map(Expr::toString).collect(Collectors.joining(", "));
        List<String> over = new ArrayList<>();
        if (!partitionBy.isEmpty()) {
            over.add("PARTITION BY " + partitionBy.stream().map(Expr::toString).collect(Collectors.joining(", ")));
        }
        if (!orderBy.isEmpty()) {
            over.add("ORDER BY " + orderBy.stream().map(SortKey::toString).collect(Collectors.joining(", ")));
        }
        if (function.usesFrame() && !frame.equals(defaultFrame(orderBy))) {
            over.add(frame.toString());
        }
        return function.sqlName() + "(" + args + ")" + (ignoreNulls ? " IGNORE NULLS" : "") + " OVER ("
                + String.join(" ", over) + ")";
    }
}
