package io.sluice.connect;

import io.sluice.api.Column;
import io.sluice.api.FrontEnds;
import io.sluice.api.Window;
import io.sluice.api.WindowSpec;
import io.sluice.common.SluiceException;
import io.sluice.connect.proto.Expression;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.logical.plan.LogicalPlan;
import java.util.List;
import java.util.Locale;

/**
 * Spark Connect's {@code Expression.Window} ({@code f.over(Window.partitionBy(..).orderBy(..).rowsBetween(..))})
 * as the engine's window call, built through the Java API's {@link WindowSpec} so that both front
 * ends map partitions, orders and frames one way. Spark sends a ranking or offset function as an
 * unresolved function of its name, an aggregate as the aggregate itself.
 */
final class WindowExpressions {
    private WindowExpressions() {
    }

    static Expr translate(Expression.Window window, LogicalPlan input, ExpressionTranslator expressions) {
        Column[] partitionBy = window.getPartitionSpecList().stream()
                .map(e -> FrontEnds.column(expressions.translate(e, input))).toArray(Column[]::new);
        SortKey[] orderBy = window.getOrderSpecList().stream().map(o -> expressions.sortKey(o, input)).toArray(SortKey[]::new);
        WindowSpec spec = Window.partitionBy(partitionBy).orderBy(orderBy);
        if (window.hasFrameSpec()) {
            spec = frame(spec, window.getFrameSpec(), input, expressions);
        }
        return FrontEnds.column(function(window.getWindowFunction(), input, expressions)).over(spec).expr();
    }

    /**
     * The function before its window: a window-only function (ranking, {@code lag}, ...) as a call of
     * the whole input that {@code over} then narrows; Spark's trailing {@code ignoreNulls} flag of
     * {@code lag}/{@code lead}/{@code first}/{@code last}/{@code nth_value} becomes the call's.
     */
    private static Expr function(Expression function, LogicalPlan input, ExpressionTranslator expressions) {
        if (function.hasUnresolvedFunction()) {
            Expression.UnresolvedFunction f = function.getUnresolvedFunction();
            WindowFunction w = WindowFunction.of(f.getFunctionName().toLowerCase(Locale.ROOT));
            if (w != null && w.aggregate() == null) {
                List<Expr> args = f.getArgumentsList().stream().map(a -> expressions.translate(a, input)).toList();
                boolean ignoreNulls = false;
                if (args.size() == withIgnoreNulls(w) && args.get(args.size() - 1) instanceof Literal flag
                        && flag.value() instanceof Boolean b) {
                    ignoreNulls = b;
                    args = args.subList(0, args.size() - 1);
                }
                return new WindowCall(w, args, List.of(), List.of(), WindowFrame.WHOLE_PARTITION, ignoreNulls);
            }
        }
        return expressions.translate(function, input);
    }

    /** How many arguments Spark's client sends when the last is the ignoreNulls flag; -1 if it never does. */
    private static int withIgnoreNulls(WindowFunction f) {
        return switch (f) {
            case LAG, LEAD -> 4;
            case FIRST_VALUE, LAST_VALUE -> 2;
            case NTH_VALUE -> 3;
            default -> -1;
        };
    }

    private static WindowSpec frame(WindowSpec spec, Expression.Window.WindowFrame frame, LogicalPlan input,
            ExpressionTranslator expressions) {
        long lower = bound(frame.getLower(), Window.unboundedPreceding, input, expressions);
        long upper = bound(frame.getUpper(), Window.unboundedFollowing, input, expressions);
        return switch (frame.getFrameType()) {
            case FRAME_TYPE_ROW -> spec.rowsBetween(lower, upper);
            case FRAME_TYPE_RANGE -> spec.rangeBetween(lower, upper);
            default -> throw new SluiceException("window frame of type " + frame.getFrameType() + " is not supported by Sluice");
        };
    }

    private static long bound(Expression.Window.WindowFrame.FrameBoundary b, long unbounded, LogicalPlan input,
            ExpressionTranslator expressions) {
        return switch (b.getBoundaryCase()) {
            case CURRENT_ROW -> Window.currentRow;
            case UNBOUNDED -> unbounded;
            case VALUE -> {
                Expr value = expressions.translate(b.getValue(), input);
                if (!(value instanceof Literal l) || !(l.value() instanceof Long offset)) {
                    throw new SluiceException("a window frame bound must be an integer constant, not " + value);
                }
                yield offset;
            }
            default -> throw new SluiceException("a window frame needs both bounds");
        };
    }
}
