package io.sluice.logical.plan;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * UNION, INTERSECT and EXCEPT, distinct or ALL, built from {@link Union}, {@link Aggregate},
 * {@link Window} and {@link Filter}, so later stages need no operator of their own. The SQL front
 * end and the DataFrame API both plan set operations here. Columns take the first input's names and
 * the widened types ({@link Union#coerced}); set operations compare NULL equal to NULL.
 */
public final class SetOperations {
    private SetOperations() {
    }

    /** {@code UNION ALL} of every input, or {@code UNION} (the distinct rows of it). */
    public static LogicalPlan union(List<LogicalPlan> inputs, boolean all) {
        LogicalPlan union = Union.coerced(inputs);
        return all ? union : distinct(union);
    }

    /** The distinct rows of {@code input}: a grouping by every column. */
    public static LogicalPlan distinct(LogicalPlan input) {
        return new Aggregate(input, columns(input.schema().names()), List.of());
    }

    /**
     * {@code INTERSECT} / {@code EXCEPT}: both inputs, each row tagged with the side it comes from, are
     * united and grouped by every column; a group is kept when both sides have it (INTERSECT) or only
     * the left one does (EXCEPT). The ALL forms first number the copies of each row on each side
     * ({@code row_number() OVER (PARTITION BY every column)}), so that the n-th copy of a row is a row
     * of its own: INTERSECT ALL keeps min(l, r) copies, EXCEPT ALL max(l - r, 0).
     */
    public static LogicalPlan intersectOrExcept(LogicalPlan left, LogicalPlan right, boolean intersect, boolean all) {
        String operation = (intersect ? "INTERSECT" : "EXCEPT") + (all ? " ALL" : "");
        if (left.schema().size() != right.schema().size()) {
            throw new SluiceException(operation + " inputs have different numbers of columns: " + left.schema().size()
                    + " and " + right.schema().size());
        }
        List<String> names = left.schema().names();
        List<String> keyNames = new ArrayList<>(names);
        if (all) {
            String copy = freshName("__copy", names);
            left = numbered(renamed(left, names), names, copy);
            right = numbered(renamed(right, names), names, copy);
            keyNames.add(copy);
        }
        String leftTag = freshName("__left_rows", keyNames);
        String rightTag = freshName("__right_rows", keyNames);
        LogicalPlan union = Union.coerced(List.of(tagged(left, keyNames, 1, 0, leftTag, rightTag),
                tagged(right, keyNames, 0, 1, leftTag, rightTag)));
        AggregateCall leftRows = new AggregateCall(AggregateFunction.SUM, new Column(leftTag));
        AggregateCall rightRows = new AggregateCall(AggregateFunction.SUM, new Column(rightTag));
        LogicalPlan grouped = new Aggregate(union, columns(keyNames), List.of(leftRows, rightRows));
        Expr onLeft = new Binary(BinaryOp.GT, new Column(leftRows.name()), Literal.of(0L));
        Expr onRight = new Binary(intersect ? BinaryOp.GT : BinaryOp.EQ, new Column(rightRows.name()), Literal.of(0L));
        return new Projection(new Filter(grouped, new Binary(BinaryOp.AND, onLeft, onRight)), columns(names));
    }

    /** {@code input} with one more column: the number of this copy among the equal rows, from 1. */
    private static LogicalPlan numbered(LogicalPlan input, List<String> names, String copy) {
        WindowCall rowNumber = new WindowCall(WindowFunction.ROW_NUMBER, List.of(), columns(names), List.of(),
                WindowFrame.WHOLE_PARTITION);
        return new Window(input, List.of(new Alias(rowNumber, copy)));
    }

    /** {@code input}'s columns renamed, by position, to {@code names}. */
    private static LogicalPlan renamed(LogicalPlan input, List<String> names) {
        List<String> inputNames = input.schema().names();
        if (inputNames.equals(names)) {
            return input;
        }
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Column c = new Column(inputNames.get(i));
            exprs.add(inputNames.get(i).equals(names.get(i)) ? c : new Alias(c, names.get(i)));
        }
        return new Projection(input, exprs);
    }

    /** {@code input}'s columns renamed to {@code names}, then the two side tags. */
    private static LogicalPlan tagged(LogicalPlan input, List<String> names, long left, long right, String leftTag,
            String rightTag) {
        List<Expr> exprs = new ArrayList<>();
        List<String> inputNames = input.schema().names();
        for (int i = 0; i < names.size(); i++) {
            Column c = new Column(inputNames.get(i));
            exprs.add(inputNames.get(i).equals(names.get(i)) ? c : new Alias(c, names.get(i)));
        }
        exprs.add(new Alias(Literal.of(left), leftTag));
        exprs.add(new Alias(Literal.of(right), rightTag));
        return new Projection(input, exprs);
    }

    private static List<Expr> columns(List<String> names) {
        List<Expr> out = new ArrayList<>(names.size());
        for (String name : names) {
            out.add(new Column(name));
        }
        return out;
    }

    /** {@code preferred}, or it with a number appended, whichever no name of {@code taken} equals (ignoring case). */
    public static String freshName(String preferred, List<String> taken) {
        String name = preferred;
        for (int i = 1; containsIgnoreCase(taken, name); i++) {
            name = preferred + "_" + i;
        }
        return name;
    }

    private static boolean containsIgnoreCase(List<String> names, String name) {
        return names.stream().anyMatch(n -> n.equalsIgnoreCase(name));
    }
}
