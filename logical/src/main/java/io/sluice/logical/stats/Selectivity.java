package io.sluice.logical.stats;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Unary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The share of rows a predicate keeps, from the input's column statistics, with fixed defaults
 * where they tell nothing (as Spark's and Trino's estimators do): {@value #EQUALITY} for an
 * equality, {@value #RANGE} for a comparison, {@value #LIKE} for each literal run of a pattern, {@value #IS_NULL} for
 * IS NULL, {@value #UNKNOWN} for anything else; an IN list counts as the comparisons it means.
 * Conjuncts multiply and disjuncts add up as if independent, except bounds on one column, which make one interval. The result is always in [0, 1].
 */
public final class Selectivity {
    public static final double EQUALITY = 0.1;
    public static final double RANGE = 1.0 / 3;
    public static final double LIKE = 0.1;
    public static final double IS_NULL = 0.1;
    public static final double UNKNOWN = 0.5;

    private Selectivity() {
    }

    public static double of(Expr predicate, Schema schema, Statistics input) {
        return clamp(estimate(predicate, schema, input));
    }

    private static double estimate(Expr e, Schema schema, Statistics input) {
        if (e instanceof Literal l) {
            return Boolean.TRUE.equals(l.value()) ? 1 : 0;
        }
        if (e instanceof Binary b && b.op() == BinaryOp.AND) {
            return conjunction(Exprs.conjuncts(e), schema, input);
        }
        if (e instanceof Binary b && b.op() == BinaryOp.OR) {
            double l = of(b.left(), schema, input);
            double r = of(b.right(), schema, input);
            return l + r - l * r;
        }
        if (e instanceof Unary u) {
            return switch (u.op()) {
                case NOT -> 1 - of(u.input(), schema, input);
                case IS_NULL -> nullShare(u.input(), schema, input);
                case IS_NOT_NULL -> 1 - nullShare(u.input(), schema, input);
                default -> UNKNOWN;
            };
        }
        if (e instanceof InList in) {
            return estimate(in.comparisons(), schema, input);
        }
        if (e instanceof Like like) {
            double s = like.pattern().indexOf('%') < 0 && like.pattern().indexOf('_') < 0
                    ? equality(like.input(), schema, input) : like(like.pattern(), like.input(), schema, input);
            return like.negated() ? 1 - s : s;
        }
        if (e instanceof Binary b && b.op().kind() == BinaryOp.Kind.COMPARISON) {
            return comparison(b, schema, input);
        }
        return UNKNOWN;
    }

    /**
     * Conjuncts multiply, except that a lower and an upper bound on one column ({@code d >= x AND
     * d < y}) are one interval: the share of the column's range between them, not the product of
     * two half-ranges (a three-month window of seven years is 4%, not 20%).
     */
    private static double conjunction(List<Expr> conjuncts, Schema schema, Statistics input) {
        Map<Expr, double[]> intervals = new LinkedHashMap<>(); // column -> [lower, upper] bound values
        double share = 1;
        List<Expr> rest = new ArrayList<>();
        for (Expr c : conjuncts) {
            Bound bound = bound(c, schema, input);
            if (bound == null) {
                rest.add(c);
                continue;
            }
            double[] interval = intervals.computeIfAbsent(bound.column(),
                    k -> new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY});
            if (bound.lower()) {
                interval[0] = Math.max(interval[0], bound.value());
            } else {
                interval[1] = Math.min(interval[1], bound.value());
            }
        }
        for (Expr c : rest) {
            share *= of(c, schema, input);
        }
        for (Map.Entry<Expr, double[]> entry : intervals.entrySet()) {
            share *= interval(entry.getKey(), entry.getValue()[0], entry.getValue()[1], schema, input);
        }
        return share;
    }

    /** A comparison of a column with a range of numbers against a numeric literal: which side it bounds. */
    private record Bound(Expr column, boolean lower, double value) {
    }

    private static Bound bound(Expr e, Schema schema, Statistics input) {
        if (!(e instanceof Binary b) || b.op().kind() != BinaryOp.Kind.COMPARISON) {
            return null;
        }
        Binary flipped = literalOnTheRight(b);
        Expr left = flipped.left();
        Expr right = flipped.right();
        BinaryOp op = flipped.op();
        if (!(right instanceof Literal lit) || lit.value() == null) {
            return null;
        }
        ColumnStatistics c = column(left, schema, input);
        Double v = number(lit.value(), lit.type());
        if (c == null || !c.hasRange() || v == null || number(c.min(), type(left, schema)) == null
                || number(c.max(), type(left, schema)) == null) {
            return null;
        }
        return switch (op) {
            case GT, GT_EQ -> new Bound(left, true, v);
            case LT, LT_EQ -> new Bound(left, false, v);
            default -> null;
        };
    }

    /** Share of rows whose {@code column} lies between {@code lower} and {@code upper} (either may be infinite). */
    private static double interval(Expr e, double lower, double upper, Schema schema, Statistics input) {
        ColumnStatistics c = column(e, schema, input);
        double lo = number(c.min(), type(e, schema));
        double hi = number(c.max(), type(e, schema));
        if (upper < lower || upper < lo || lower > hi) {
            return 0;
        }
        double share;
        if (hi <= lo) {
            share = 1;
        } else {
            share = (Math.min(hi, upper) - Math.max(lo, lower)) / (hi - lo);
        }
        // a range of integer-like values holds at least one value when it meets the column's range
        double one = c.distinctCount().isKnown() && c.distinctCount().value() >= 1 ? 1 / c.distinctCount().value() : 0;
        return clamp(Math.max(share, one)) * nonNullShare(c, input);
    }

    /**
     * A pattern with wildcards keeps {@value #LIKE} of the rows for each run of literal text it
     * must find ({@code 'forest%'} and {@code '%BRASS'} one, {@code '%special%requests%'} two), as
     * if each were an independent condition, but at least the share of one distinct value: the more
     * a pattern spells out, the fewer values match it. (One fixed share for every pattern was 25x
     * off at TPC-H scale 1 for {@code '%special%requests%'}, and 100x for
     * {@code '%Customer%Complaints%'}.)
     */
    private static double like(String pattern, Expr input, Schema schema, Statistics statistics) {
        int runs = 0;
        boolean inRun = false;
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            boolean wildcard = ch == '%';
            if (!wildcard && !inRun) {
                runs++;
            }
            inRun = !wildcard;
        }
        ColumnStatistics c = column(input, schema, statistics);
        boolean counted = c != null && c.distinctCount().isKnown() && c.distinctCount().value() >= 1;
        return Math.max(Math.pow(LIKE, Math.max(1, runs)), counted ? equality(input, schema, statistics) : 0);
    }

    /** The comparison with a literal left side moved to the right (its operator flipped: {@code 5 < x} is {@code x > 5}). */
    private static Binary literalOnTheRight(Binary b) {
        return b.left() instanceof Literal && !(b.right() instanceof Literal) ? new Binary(b.op().flip(), b.right(), b.left()) : b;
    }

    private static double comparison(Binary b, Schema schema, Statistics input) {
        Binary flipped = literalOnTheRight(b);
        Expr left = flipped.left();
        Expr right = flipped.right();
        BinaryOp op = flipped.op();
        if (right instanceof Literal lit && lit.value() == null) {
            return 0; // a comparison with NULL is never true
        }
        switch (op) {
            case EQ:
                if (right instanceof Literal lit) {
                    return outsideRange(left, lit, schema, input) ? 0 : equality(left, schema, input);
                }
                return 1 / Math.max(distinct(left, schema, input, 1 / EQUALITY), distinct(right, schema, input, 1 / EQUALITY));
            case NOT_EQ:
                return right instanceof Literal ? 1 - equality(left, schema, input) : 1 - EQUALITY;
            default:
                return right instanceof Literal lit ? range(left, op, lit, schema, input) : RANGE;
        }
    }

    /** Share of rows where {@code e} equals one given value. */
    private static double equality(Expr e, Schema schema, Statistics input) {
        ColumnStatistics c = column(e, schema, input);
        if (c == null || !c.distinctCount().isKnown() || c.distinctCount().value() < 1) {
            return EQUALITY;
        }
        return nonNullShare(c, input) / c.distinctCount().value();
    }

    private static double nullShare(Expr e, Schema schema, Statistics input) {
        ColumnStatistics c = column(e, schema, input);
        if (c == null || !c.nullCount().isKnown() || input.rowCount() <= 0) {
            return IS_NULL;
        }
        return clamp(c.nullCount().value() / input.rowCount());
    }

    private static double nonNullShare(ColumnStatistics c, Statistics input) {
        if (!c.nullCount().isKnown() || input.rowCount() <= 0) {
            return 1;
        }
        return clamp(1 - c.nullCount().value() / input.rowCount());
    }

    /**
     * Distinct values of an expression over the input: a column's distinct count (or the input's
     * rows when unknown) or {@code fallback} for other expressions.
     */
    public static double distinct(Expr e, Schema schema, Statistics input, double fallback) {
        ColumnStatistics c = column(e, schema, input);
        if (c == null) {
            return Math.max(1, Math.min(fallback, input.rowCount()));
        }
        return Math.max(1, c.distinctCount().orElse(input.rowCount()));
    }

    private static boolean outsideRange(Expr e, Literal lit, Schema schema, Statistics input) {
        ColumnStatistics c = column(e, schema, input);
        if (c == null || !c.hasRange()) {
            return false;
        }
        Double v = number(lit.value(), lit.type());
        Double lo = number(c.min(), type(e, schema));
        Double hi = number(c.max(), type(e, schema));
        if (v != null && lo != null && hi != null) {
            return v < lo || v > hi;
        }
        if (lit.value() instanceof String s && c.min() instanceof String min && c.max() instanceof String max) {
            return c.rangePrecision() == Estimate.Precision.EXACT && (s.compareTo(min) < 0 || s.compareTo(max) > 0);
        }
        return false;
    }

    /** Share of rows with {@code e op lit}, interpolated in a numeric range when known. */
    private static double range(Expr e, BinaryOp op, Literal lit, Schema schema, Statistics input) {
        ColumnStatistics c = column(e, schema, input);
        if (c == null || !c.hasRange()) {
            return RANGE;
        }
        Double v = number(lit.value(), lit.type());
        Double lo = number(c.min(), type(e, schema));
        Double hi = number(c.max(), type(e, schema));
        if (v == null || lo == null || hi == null) {
            return RANGE;
        }
        double below; // share of non-NULL values below v
        if (hi <= lo) {
            below = v > lo ? 1 : 0;
        } else {
            below = clamp((v - lo) / (hi - lo));
        }
        double share = switch (op) {
            case LT, LT_EQ -> below;
            default -> 1 - below;
        };
        // Integer-like ranges include their end points: a closed comparison keeps at least one value.
        double one = c.distinctCount().isKnown() && c.distinctCount().value() >= 1 ? 1 / c.distinctCount().value() : 0;
        if ((op == BinaryOp.LT_EQ || op == BinaryOp.GT_EQ) && v >= lo && v <= hi) {
            share = Math.max(share, one);
        }
        return share * nonNullShare(c, input);
    }

    private static ColumnStatistics column(Expr e, Schema schema, Statistics input) {
        return ExpressionStatistics.column(e, schema, input);
    }

    private static DataType type(Expr e, Schema schema) {
        while (e instanceof Alias || e instanceof Cast) {
            e = e.children().get(0);
        }
        try {
            return e.type(schema);
        } catch (SluiceException unknown) {
            return DataType.NULL;
        }
    }

    /** An engine value as a double on a common scale (decimals unscaled by their type), or null. */
    public static Double number(Object value, DataType type) {
        if (value instanceof Long l) {
            return type.kind() == DataType.Kind.DECIMAL ? l / Math.pow(10, type.scale()) : (double) l;
        }
        if (value instanceof Double d && !d.isNaN() && !d.isInfinite()) {
            return d;
        }
        return null;
    }

    private static double clamp(double v) {
        return Double.isNaN(v) ? UNKNOWN : Math.max(0, Math.min(1, v));
    }
}
