package io.sluice.logical.plan;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.ExpressionStatistics;
import io.sluice.logical.stats.Selectivity;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;

/**
 * A join's output statistics. Inner matches: |L| * |R| / max(V(L, k), V(R, k)), where V is the
 * number of distinct values of the key columns taken together (the product of the keys' distinct
 * counts, capped by the side's rows; a key whose distinct count is unknown counts as a unique one;
 * correlated compound keys are counted apart, see {@link #matchDistinct}), times the residual
 * filter's selectivity. Outer joins keep at least their preserved sides' rows;
 * a semi join keeps the left rows whose key has a match (the share of left distinct values the
 * right has, assuming containment), an anti join the others.
 */
final class JoinStatistics {
    /** Share of left rows an anti join is assumed to keep at least. */
    private static final double MIN_ANTI_SHARE = 0.1;

    private JoinStatistics() {
    }

    static Statistics of(Join join, Statistics left, Statistics right) {
        Schema leftSchema = join.left().schema();
        Schema rightSchema = join.right().schema();
        double leftRows = left.rowCount();
        double rightRows = right.rowCount();
        double leftDistinct = keyDistinct(join.leftKeys(), leftSchema, left);
        double rightDistinct = keyDistinct(join.rightKeys(), rightSchema, right);
        double inner = join.leftKeys().isEmpty() ? leftRows * rightRows
                : leftRows * rightRows / Math.max(1, matchDistinct(join, left, right, leftDistinct, rightDistinct));
        Statistics combined = null;
        if (join.type().outputsRight() || join.filter() != null || join.mark() != null) {
            combined = Statistics.of(left.rows(), concat(left.columns(), right.columns()));
        }
        if (join.filter() != null) {
            inner *= Selectivity.of(join.filter(), join.combinedSchema(), combined);
        }
        double rows = switch (join.type()) {
            case INNER -> inner;
            case LEFT -> Math.max(inner, leftRows);
            case RIGHT -> Math.max(inner, rightRows);
            case FULL -> Math.max(inner, leftRows + rightRows - Math.min(leftRows, rightRows));
            case LEFT_SEMI -> leftRows * matchedShare(join, leftDistinct, rightDistinct, rightRows);
            case LEFT_MARK -> leftRows;
            case LEFT_ANTI, LEFT_ANTI_NULL_AWARE -> leftRows
                    * Math.max(MIN_ANTI_SHARE, 1 - matchedShare(join, leftDistinct, rightDistinct, rightRows));
        };
        boolean exact = join.leftKeys().isEmpty() && join.filter() == null && join.type() == JoinType.INNER
                && left.rows().precision() == Estimate.Precision.EXACT
                && right.rows().precision() == Estimate.Precision.EXACT;
        Estimate estimate = exact ? Estimate.exact(rows) : Estimate.inexact(rows);
        if (join.mark() != null) {
            List<ColumnStatistics> columns = new ArrayList<>(left.columns());
            columns.add(ColumnStatistics.unknown(io.sluice.common.types.DataType.BOOL));
            return Statistics.of(estimate, columns);
        }
        if (!join.type().outputsRight()) {
            return left.withRows(estimate);
        }
        List<ColumnStatistics> columns = new ArrayList<>(combined.columns().size());
        for (ColumnStatistics c : combined.columns()) {
            columns.add(exact ? c : c.capped(rows));
        }
        if (join.type() == JoinType.INNER) {
            // Matched keys take values both sides have: at most the smaller distinct count.
            for (int i = 0; i < join.leftKeys().size(); i++) {
                narrowKey(columns, join.leftKeys().get(i), leftSchema, 0, left, right, join.rightKeys().get(i),
                        rightSchema);
                narrowKey(columns, join.rightKeys().get(i), rightSchema, leftSchema.size(), right, left,
                        join.leftKeys().get(i), leftSchema);
            }
        }
        return Statistics.of(estimate, columns);
    }

    private static void narrowKey(List<ColumnStatistics> columns, Expr key, Schema schema, int offset, Statistics side,
            Statistics other, Expr otherKey, Schema otherSchema) {
        if (!(key instanceof Column c)) {
            return;
        }
        int index = schema.indexOf(c.column());
        ColumnStatistics otherStats = ExpressionStatistics.column(otherKey, otherSchema, other);
        if (index < 0 || otherStats == null || !otherStats.distinctCount().isKnown()) {
            return;
        }
        ColumnStatistics mine = columns.get(offset + index);
        if (mine.distinctCount().isKnown() && mine.distinctCount().value() > otherStats.distinctCount().value()) {
            columns.set(offset + index, mine.withDistinctCount(Estimate.inexact(otherStats.distinctCount().value())));
        }
    }

    /** The share of left rows whose key the right side has: V(R) / V(L), at most 1. */
    private static double matchedShare(Join join, double leftDistinct, double rightDistinct, double rightRows) {
        if (rightRows <= 0) {
            return 0;
        }
        double share = join.leftKeys().isEmpty() ? 1 : Math.min(1, rightDistinct / Math.max(1, leftDistinct));
        return join.filter() == null ? share : share * Selectivity.UNKNOWN;
    }

    /** A key column is taken as unique on its side when its distinct values are at least this share of the rows. */
    private static final double UNIQUE_SHARE = 0.9;

    /**
     * The distinct key values the inner-join formula divides by: the larger side's count. With
     * several keys, none of them unique on its side, the keys are taken as correlated columns of a
     * compound key, as a foreign key onto a compound primary key is ({@code lineitem (l_partkey,
     * l_suppkey)} onto {@code partsupp}): the product of the columns' counts, capped by the rows,
     * then overstates the distinct pairs of the larger side (6M for lineitem, whose pairs are
     * partsupp's 800k) and the join comes out 7.5x too small. There the count is that of the side
     * with fewer pairs (the referenced one), but at least any one key column's count. When some key
     * is unique on its side (a supplier's {@code s_suppkey} next to {@code s_nationkey}), the other
     * keys are independent conditions on the rows that key matched, and the product stands.
     */
    private static double matchDistinct(Join join, Statistics left, Statistics right, double leftDistinct,
            double rightDistinct) {
        double standard = Math.max(leftDistinct, rightDistinct);
        if (join.leftKeys().size() < 2 || anyUnique(join.leftKeys(), join.left().schema(), left)
                || anyUnique(join.rightKeys(), join.right().schema(), right)) {
            return standard;
        }
        double widestColumn = 1;
        for (int i = 0; i < join.leftKeys().size(); i++) {
            widestColumn = Math.max(widestColumn, Math.max(
                    Selectivity.distinct(join.leftKeys().get(i), join.left().schema(), left, left.rowCount()),
                    Selectivity.distinct(join.rightKeys().get(i), join.right().schema(), right, right.rowCount())));
        }
        return Math.min(standard, Math.max(widestColumn, Math.min(leftDistinct, rightDistinct)));
    }

    private static boolean anyUnique(List<Expr> keys, Schema schema, Statistics side) {
        for (Expr key : keys) {
            if (ExpressionStatistics.column(key, schema, side) != null
                    && Selectivity.distinct(key, schema, side, side.rowCount()) >= UNIQUE_SHARE * side.rowCount()) {
                return true;
            }
        }
        return false;
    }

    /** Distinct values of the keys taken together, at most the side's rows. */
    static double keyDistinct(List<Expr> keys, Schema schema, Statistics side) {
        double product = 1;
        for (Expr key : keys) {
            // a literal key (the constant pair a cross join with a scalar subquery gets) has one value
            product *= key instanceof Literal ? 1 : Selectivity.distinct(key, schema, side, side.rowCount());
        }
        return Math.max(1, Math.min(product, side.rowCount()));
    }

    private static List<ColumnStatistics> concat(List<ColumnStatistics> left, List<ColumnStatistics> right) {
        List<ColumnStatistics> out = new ArrayList<>(left);
        out.addAll(right);
        return out;
    }
}
