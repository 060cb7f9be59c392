package io.sluice.optimizer;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.StatisticsContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Applies a semi or anti join to the input of an inner join that has every left-side column it
 * reads, when that input has no more estimated rows than the inner join's output:
 * {@code (A JOIN B) SEMI R} becomes {@code (A SEMI R) JOIN B}. TPC-H q18's {@code o_orderkey IN
 * (...)} then keeps 57 orders before they meet 6M lineitems, instead of testing the 6M joined rows.
 *
 * <p>Why it holds: a semi or anti join (NOT IN included) keeps or drops each left row by that row's
 * own values and the right input, like a filter, and a filter over one input of an inner join
 * commutes with the join. Mark joins, which add a column, are left alone.
 *
 * <p>Why the row test: the semi join costs a probe per input row, so it moves down only where it
 * sees no more rows (q21's EXISTS over lineitem stays above the join that keeps one nation's
 * suppliers). Equal estimates let it sink to a base input, where join reordering sees it as part
 * of one leaf instead of a wall between two regions. The output columns and their order are unchanged. The rule only moves semi joins
 * down, so the optimizer's loop ends.
 */
public final class PushSemiJoinBelowJoin implements NodeRule {
    private final Supplier<StatisticsContext> statistics;

    /** A rule whose estimates come from {@code statistics} (a fresh context per node). */
    public PushSemiJoinBelowJoin(Supplier<StatisticsContext> statistics) {
        this.statistics = requireNonNull(statistics, "statistics is null");
    }

    @Override
    public String name() {
        return "PushSemiJoinBelowJoin";
    }

    /** Top-down, so a semi join sinks through a chain of inner joins in one walk. */
    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.TOP_DOWN;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan node) {
        if (!(node instanceof Join semi) || !filtersLeftRows(semi.type())
                || !(semi.left() instanceof Join inner) || inner.type() != JoinType.INNER) {
            return node;
        }
        Set<String> reads = leftColumnsRead(semi);
        boolean onLeft = inner.left().schema().names().containsAll(reads);
        boolean onRight = !onLeft && inner.right().schema().names().containsAll(reads);
        if (!onLeft && !onRight) {
            return node;
        }
        LogicalPlan target = onLeft ? inner.left() : inner.right();
        StatisticsContext stats = statistics.get();
        if (stats.of(target).rowCount() > stats.of(inner).rowCount()) {
            return node;
        }
        Join pushed = new Join(target, semi.right(), semi.type(), semi.leftKeys(), semi.rightKeys(), semi.filter());
        return inner.withNewChildren(onLeft ? List.of(pushed, inner.right()) : List.of(inner.left(), pushed));
    }

    private static boolean filtersLeftRows(JoinType type) {
        return type == JoinType.LEFT_SEMI || type == JoinType.LEFT_ANTI || type == JoinType.LEFT_ANTI_NULL_AWARE;
    }

    /** Names of the semi join's left columns that its keys and filter read. */
    private static Set<String> leftColumnsRead(Join semi) {
        Set<String> out = new HashSet<>();
        for (Expr key : semi.leftKeys()) {
            for (int i : PlanRewrites.columnIndexes(key, semi.left().schema())) {
                out.add(semi.left().schema().field(i).name());
            }
        }
        if (semi.filter() != null) {
            int leftSize = semi.left().schema().size();
            for (int i : PlanRewrites.columnIndexes(semi.filter(), semi.combinedSchema())) {
                if (i < leftSize) {
                    out.add(semi.left().schema().field(i).name());
                }
            }
        }
        return out;
    }
}
