package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Union;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOperator;

/**
 * Plans UNION, INTERSECT and EXCEPT over inputs planned by the caller: every set operation is built
 * from {@link Union}, {@link Aggregate} and {@link Filter}, so later stages need no operator of its own.
 */
final class SetOperations {
    private SetOperations() {
    }

    /** Whether {@code node} is a UNION, INTERSECT or EXCEPT. */
    static boolean isSetOperation(SqlNode node) {
        return switch (node.getKind()) {
            case UNION, INTERSECT, EXCEPT -> true;
            default -> false;
        };
    }

    /**
     * {@code UNION ALL} is a {@link Union} of every input of the chain; {@code UNION} is an
     * {@link Aggregate} grouping by every column over such a union (the distinct rows). Inputs are
     * cast to the widened column types; columns take the first input's names.
     */
    static LogicalPlan plan(SqlCall call, Function<SqlNode, LogicalPlan> translate) {
        boolean all = ((SqlSetOperator) call.getOperator()).isAll();
        if (call.getKind() != SqlKind.UNION) {
            if (all) {
                throw SqlErrors.unsupported(call.getKind().name() + " ALL");
            }
            return intersectOrExcept(translate.apply(call.operand(0)), translate.apply(call.operand(1)),
                    call.getKind() == SqlKind.INTERSECT);
        }
        List<SqlNode> leaves = new ArrayList<>();
        unionLeaves(call, all, leaves);
        List<LogicalPlan> inputs = new ArrayList<>(leaves.size());
        for (SqlNode leaf : leaves) {
            inputs.add(translate.apply(leaf));
        }
        LogicalPlan union = Union.coerced(inputs);
        if (all) {
            return union;
        }
        List<Expr> columns = new ArrayList<>();
        for (String name : union.schema().names()) {
            columns.add(new Column(name));
        }
        return new Aggregate(union, columns, List.of());
    }

    /**
     * {@code INTERSECT} / {@code EXCEPT} (distinct): both inputs, each row tagged with the side it
     * comes from, are united and grouped by every column (so NULLs match NULLs, as set operations
     * require); a group is kept when both sides have it (INTERSECT) or only the left one does
     * (EXCEPT). Columns take the left input's names and the widened types.
     */
    private static LogicalPlan intersectOrExcept(LogicalPlan left, LogicalPlan right, boolean intersect) {
        if (left.schema().size() != right.schema().size()) {
            throw new SluiceException((intersect ? "INTERSECT" : "EXCEPT") + " inputs have different numbers of"
                    + " columns: " + left.schema().size() + " and " + right.schema().size());
        }
        List<String> names = left.schema().names();
        String leftTag = QueryTranslator.freshName("__left_rows", names);
        String rightTag = QueryTranslator.freshName("__right_rows", names);
        List<Expr> columns = new ArrayList<>();
        for (String name : names) {
            columns.add(new Column(name));
        }
        LogicalPlan union = Union.coerced(List.of(tagged(left, names, 1, 0, leftTag, rightTag),
                tagged(right, names, 0, 1, leftTag, rightTag)));
        AggregateCall leftRows = new AggregateCall(AggregateFunction.SUM, new Column(leftTag));
        AggregateCall rightRows = new AggregateCall(AggregateFunction.SUM, new Column(rightTag));
        LogicalPlan grouped = new Aggregate(union, columns, List.of(leftRows, rightRows));
        Expr onLeft = new Binary(BinaryOp.GT, new Column(leftRows.name()), Literal.of(0L));
        Expr onRight = new Binary(intersect ? BinaryOp.GT : BinaryOp.EQ, new Column(rightRows.name()), Literal.of(0L));
        return new Projection(new Filter(grouped, new Binary(BinaryOp.AND, onLeft, onRight)), columns);
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

    /**
     * The inputs of a chain of unions. A distinct union also absorbs the inputs of the unions below it
     * (distinct or not: duplicates go anyway); a union all only those of unions all.
     */
    private static void unionLeaves(SqlCall union, boolean all, List<SqlNode> out) {
        for (SqlNode operand : union.getOperandList()) {
            if (operand.getKind() == SqlKind.UNION && operand instanceof SqlCall child
                    && (!all || ((SqlSetOperator) child.getOperator()).isAll())) {
                unionLeaves(child, all, out);
            } else {
                out.add(operand);
            }
        }
    }
}
