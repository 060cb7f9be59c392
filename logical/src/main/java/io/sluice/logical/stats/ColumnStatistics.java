package io.sluice.logical.stats;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;

/**
 * What is known of one column: distinct and NULL counts, the range of its non-NULL values (engine
 * values as {@link io.sluice.logical.expr.Literal} holds them: Long for integers, dates and unscaled
 * decimals, Double, String, Boolean; null when unknown) and the average width of a value in bytes,
 * which is always an estimate (from the files, or a nominal width of the type).
 */
public record ColumnStatistics(Estimate distinctCount, Estimate nullCount, Object min, Object max,
        Estimate.Precision rangePrecision, double averageWidth) {
    /** Nominal width of a string value whose width nothing tells. */
    public static final double STRING_WIDTH = 24;

    public ColumnStatistics {
        requireNonNull(distinctCount, "distinctCount is null");
        requireNonNull(nullCount, "nullCount is null");
        requireNonNull(rangePrecision, "rangePrecision is null");
        if ((min == null) != (max == null) || (min == null) != (rangePrecision == Estimate.Precision.ABSENT)) {
            throw new IllegalArgumentException("min and max must both be known (with a precision) or both absent");
        }
        if (!(averageWidth >= 0)) {
            throw new IllegalArgumentException("average width must be non-negative: " + averageWidth);
        }
    }

    /** Nothing known but the nominal width of {@code type}. */
    public static ColumnStatistics unknown(DataType type) {
        return unknown(nominalWidth(type));
    }

    public static ColumnStatistics unknown(double averageWidth) {
        return new ColumnStatistics(Estimate.ABSENT, Estimate.ABSENT, null, null, Estimate.Precision.ABSENT, averageWidth);
    }

    /** A constant: one distinct value, no NULLs (or only NULLs when {@code value} is null). */
    public static ColumnStatistics constant(Object value, DataType type, double rows) {
        if (value == null) {
            return new ColumnStatistics(Estimate.exact(0), Estimate.inexact(rows), null, null, Estimate.Precision.ABSENT,
                    nominalWidth(type));
        }
        double width = value instanceof String s ? s.length() + 4 : nominalWidth(type);
        return new ColumnStatistics(Estimate.exact(rows > 0 ? 1 : 0), Estimate.exact(0), value, value,
                Estimate.Precision.EXACT, width);
    }

    private static final int NOMINAL_ELEMENTS = 4;

    /** Bytes of a value of {@code type} in memory, strings at a nominal length, lists and maps at a nominal size. */
    public static double nominalWidth(DataType type) {
        return switch (type.kind()) {
            case NULL, BOOL -> 1;
            case INT32, DATE32 -> 4;
            case INT64, FLOAT64, DECIMAL, TIMESTAMP -> 8;
            case UTF8 -> STRING_WIDTH;
            case STRUCT -> type.children().stream().mapToDouble(f -> nominalWidth(f.type())).sum();
            // a nominal few elements each, plus an offset
            case LIST, MAP -> 4 + NOMINAL_ELEMENTS * type.children().stream().mapToDouble(f -> nominalWidth(f.type())).sum();
        };
    }

    public boolean hasRange() {
        return rangePrecision != Estimate.Precision.ABSENT;
    }

    /** This column among at most {@code rows} rows: counts capped, everything at best inexact. */
    public ColumnStatistics capped(double rows) {
        return new ColumnStatistics(distinctCount.atMost(rows), nullCount.atMost(rows), min, max,
                min == null ? Estimate.Precision.ABSENT : Estimate.Precision.INEXACT, averageWidth);
    }

    /** The same column, every statistic marked inexact. */
    public ColumnStatistics toInexact() {
        return new ColumnStatistics(distinctCount.toInexact(), nullCount.toInexact(), min, max,
                min == null ? Estimate.Precision.ABSENT : Estimate.Precision.INEXACT, averageWidth);
    }

    public ColumnStatistics withDistinctCount(Estimate distinct) {
        return new ColumnStatistics(distinct, nullCount, min, max, rangePrecision, averageWidth);
    }

    @Override
    public String toString() {
        return "ndv=" + distinctCount + " nulls=" + nullCount
                + (hasRange() ? " range=[" + min + ", " + max + "]" + (rangePrecision == Estimate.Precision.EXACT ? "" : "~")
                        : "")
                + " width=" + Math.round(averageWidth);
    }
}
