package io.sluice.optimizer;

import io.sluice.common.types.Field;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Plans the anti join people write as an outer join: {@code l LEFT JOIN r ON l.a = r.b … WHERE r.b IS
 * NULL} becomes {@code l LEFT ANTI JOIN r ON …}, with the right columns as typed NULLs above it. A
 * matched row has a non-NULL {@code r.b} (NULL keys never match), so the filter keeps exactly the left
 * rows without a match, which is what the anti join outputs, without building the joined rows first.
 *
 * <p>Applies when some conjunct of the filter is {@code c IS NULL} for a column {@code c} that is one
 * of the join's right keys, and no other conjunct reads a right column; those other conjuncts stay in a
 * filter over the anti join. The right columns come back as NULL literals of their types, so the
 * schema is unchanged (PruneColumns drops the ones nobody reads). Otherwise the same instance comes back.
 */
public final class LeftJoinIsNullToAntiJoin implements NodeRule {
    @Override
    public String name() {
        return "LeftJoinIsNullToAntiJoin";
    }

    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan node) {
        if (!(node instanceof Filter filter) || !(filter.input() instanceof Join join) || join.type() != JoinType.LEFT) {
            return node;
        }
        Set<String> rightColumns = new HashSet<>(join.right().schema().names());
        Set<String> rightKeyColumns = new HashSet<>();
        for (Expr key : join.rightKeys()) {
            if (key instanceof Column column) {
                rightKeyColumns.add(column.column());
            }
        }
        boolean unmatchedOnly = false;
        List<Expr> rest = new ArrayList<>();
        for (Expr conjunct : Exprs.conjuncts(filter.predicate())) {
            if (conjunct instanceof Unary unary && unary.op() == Unary.Op.IS_NULL && unary.input() instanceof Column column
                    && rightKeyColumns.contains(column.column())) {
                unmatchedOnly = true;
            } else if (Exprs.columns(conjunct).stream().anyMatch(rightColumns::contains)) {
                return node;
            } else {
                rest.add(conjunct);
            }
        }
        if (!unmatchedOnly) {
            return node;
        }
        LogicalPlan anti = new Join(join.left(), join.right(), JoinType.LEFT_ANTI, join.leftKeys(), join.rightKeys(), join.filter());
        if (!rest.isEmpty()) {
            anti = new Filter(anti, Exprs.and(rest));
        }
        List<Expr> columns = new ArrayList<>();
        for (Field field : join.left().schema().fields()) {
            columns.add(new Column(field.name()));
        }
        for (Field field : join.right().schema().fields()) {
            columns.add(new Alias(new Literal(null, field.type()), field.name()));
        }
        return new Projection(anti, columns);
    }
}
