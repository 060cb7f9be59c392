package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlWindow;

/**
 * Translates {@code f(args) OVER (PARTITION BY ... ORDER BY ... frame)} into a {@link WindowCall}.
 * ORDER BY keys sort NULLs last in both directions unless told (DuckDB's default, as for the
 * query's ORDER BY); without a frame the SQL default applies ({@link WindowCall#defaultFrame}).
 * {@code IGNORE NULLS} after the call, or Spark's {@code first_value(x, true)}, skips NULL values.
 */
final class WindowTranslator {
    private WindowTranslator() {
    }

    static Expr translate(SqlCall over, Function<SqlNode, Expr> translator) {
        SqlNode functionNode = over.operand(0);
        boolean ignoreNulls = false;
        if (functionNode.getKind() == SqlKind.IGNORE_NULLS || functionNode.getKind() == SqlKind.RESPECT_NULLS) {
            ignoreNulls = functionNode.getKind() == SqlKind.IGNORE_NULLS;
            functionNode = ((SqlCall) functionNode).operand(0);
        }
        if (!(functionNode instanceof SqlCall function)) {
            throw SqlErrors.unsupported("window function " + functionNode);
        }
        if (!(over.operand(1) instanceof SqlWindow window) || window.getRefName() != null) {
            throw SqlErrors.unsupported("named window " + over.operand(1));
        }
        String name = function.getOperator().getName().toLowerCase(Locale.ROOT);
        WindowFunction f = WindowFunction.of(name);
        if (f == null) {
            throw SqlErrors.unsupported("window function '" + name + "'");
        }
        SqlLiteral quantifier = function.getFunctionQuantifier();
        if (quantifier != null && quantifier.getValue() == SqlSelectKeyword.DISTINCT) {
            throw SqlErrors.unsupported("DISTINCT in window function " + name + "()");
        }
        List<Expr> args = new ArrayList<>();
        for (SqlNode operand : function.getOperandList()) {
            if (operand instanceof SqlIdentifier id && id.isStar()) {
                if (f != WindowFunction.COUNT || function.operandCount() != 1) {
                    throw new SluiceException(name + "(" + id + ") is not valid; only count(*) takes '*'");
                }
                f = WindowFunction.COUNT_STAR;
                continue;
            }
            Expr arg = translator.apply(operand);
            if (Exprs.containsWindow(arg)) {
                throw new SluiceException("window function calls cannot be nested: " + name + "(" + arg + ")");
            }
            args.add(arg);
        }
        if ((f == WindowFunction.FIRST_VALUE || f == WindowFunction.LAST_VALUE) && args.size() == 2
                && args.get(1) instanceof Literal flag && flag.value() instanceof Boolean ignore) {
            ignoreNulls |= ignore; // Spark's first_value(x, true)
            args.remove(1);
        }
        List<Expr> partitionBy = new ArrayList<>();
        for (SqlNode node : window.getPartitionList()) {
            partitionBy.add(translator.apply(node));
        }
        List<SortKey> orderBy = new ArrayList<>();
        for (SqlNode node : window.getOrderList()) {
            orderBy.add(sortKey(node, translator));
        }
        for (Expr e : partitionBy) {
            checkNoWindow(e, "PARTITION BY");
        }
        orderBy.forEach(k -> checkNoWindow(k.expr(), "ORDER BY"));
        return new WindowCall(f, args, partitionBy, orderBy, frame(window, orderBy), ignoreNulls);
    }

    private static void checkNoWindow(Expr e, String clause) {
        if (Exprs.containsWindow(e)) {
            throw new SluiceException("window functions are not allowed in a window's " + clause + ": " + e);
        }
    }

    static SortKey sortKey(SqlNode node, Function<SqlNode, Expr> translator) {
        boolean ascending = true;
        boolean nullsFirst = false;
        while (node instanceof SqlCall call) {
            SqlKind kind = call.getKind();
            if (kind == SqlKind.DESCENDING) {
                ascending = false;
            } else if (kind == SqlKind.NULLS_FIRST) {
                nullsFirst = true;
            } else if (kind == SqlKind.NULLS_LAST) {
                nullsFirst = false;
            } else {
                break;
            }
            node = call.operand(0);
        }
        return new SortKey(translator.apply(node), ascending, nullsFirst);
    }

    /** The written frame; {@code ROWS n PRECEDING} alone ends at the current row. */
    private static WindowFrame frame(SqlWindow window, List<SortKey> orderBy) {
        SqlNode lower = window.getLowerBound();
        SqlNode upper = window.getUpperBound();
        if (lower == null && upper == null) {
            return WindowCall.defaultFrame(orderBy);
        }
        if (window.getExclude() != null && !SqlWindow.isExcludeNoOthers(window.getExclude())) {
            throw SqlErrors.unsupported("EXCLUDE in a window frame");
        }
        WindowFrame.Units units = window.isRows() ? WindowFrame.Units.ROWS : WindowFrame.Units.RANGE;
        WindowFrame.Bound start = bound(lower);
        WindowFrame.Bound end = upper == null ? WindowFrame.Bound.CURRENT_ROW : bound(upper);
        return new WindowFrame(units, start, end);
    }

    private static WindowFrame.Bound bound(SqlNode node) {
        if (SqlWindow.isUnboundedPreceding(node)) {
            return WindowFrame.Bound.UNBOUNDED_PRECEDING;
        }
        if (SqlWindow.isUnboundedFollowing(node)) {
            return WindowFrame.Bound.UNBOUNDED_FOLLOWING;
        }
        if (SqlWindow.isCurrentRow(node)) {
            return WindowFrame.Bound.CURRENT_ROW;
        }
        if (node instanceof SqlCall call && (call.getKind() == SqlKind.PRECEDING || call.getKind() == SqlKind.FOLLOWING)) {
            long offset = offset(call.operand(0));
            return call.getKind() == SqlKind.PRECEDING ? WindowFrame.Bound.preceding(offset)
                    : WindowFrame.Bound.following(offset);
        }
        throw SqlErrors.unsupported("window frame bound " + node);
    }

    /** An integer, or for a date ORDER BY key an interval of days or weeks. */
    private static long offset(SqlNode node) {
        if (node instanceof SqlIntervalLiteral interval) {
            ExpressionTranslator.Interval value = ExpressionTranslator.Interval.of(interval);
            if (value.months() != 0 || value.days() < 0) {
                throw SqlErrors.unsupported("window frame offset " + node + " (only days or weeks, not months or years, "
                        + "and not negative)");
            }
            return value.days();
        }
        if (node instanceof SqlNumericLiteral n && n.isExact()) {
            BigDecimal value = n.getValueAs(BigDecimal.class);
            if (value.scale() <= 0) {
                try {
                    return value.longValueExact();
                } catch (ArithmeticException e) {
                    // reported below
                }
            }
        }
        throw SqlErrors.unsupported("window frame offset " + node + " (only a non-negative integer constant)");
    }
}
