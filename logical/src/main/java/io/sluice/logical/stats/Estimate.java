package io.sluice.logical.stats;

import static java.util.Objects.requireNonNull;

/**
 * A number the optimizer knows exactly, estimates, or does not know. An absent estimate has no
 * value ({@link #value()} is NaN); anything derived from an inexact or absent one is at best
 * inexact.
 */
public record Estimate(double value, Precision precision) {
    /** How far a statistic can be trusted. */
    public enum Precision { EXACT, INEXACT, ABSENT }

    public static final Estimate ABSENT = new Estimate(Double.NaN, Precision.ABSENT);

    public Estimate {
        requireNonNull(precision, "precision is null");
        if (precision == Precision.ABSENT) {
            value = Double.NaN;
        } else if (Double.isNaN(value) || value < 0) {
            throw new IllegalArgumentException("an estimate must be a non-negative number, not " + value);
        }
    }

    public static Estimate exact(double value) {
        return new Estimate(value, Precision.EXACT);
    }

    public static Estimate inexact(double value) {
        return new Estimate(value, Precision.INEXACT);
    }

    public boolean isKnown() {
        return precision != Precision.ABSENT;
    }

    /** The value, or {@code fallback} when absent. */
    public double orElse(double fallback) {
        return isKnown() ? value : fallback;
    }

    /** The same value marked inexact (absent stays absent). */
    public Estimate toInexact() {
        return precision == Precision.EXACT ? inexact(value) : this;
    }

    /** At most {@code cap}: capping makes an exact value inexact only when it changes it. */
    public Estimate atMost(double cap) {
        if (!isKnown() || value <= cap) {
            return this;
        }
        return inexact(cap);
    }

    @Override
    public String toString() {
        return switch (precision) {
            case EXACT -> format(value);
            case INEXACT -> "~" + format(value);
            case ABSENT -> "?";
        };
    }

    private static String format(double v) {
        if (v >= 1e15) {
            return String.format(java.util.Locale.ROOT, "%.2e", v);
        }
        return v >= 1 || v == 0 ? Long.toString(Math.round(v)) : String.format(java.util.Locale.ROOT, "%.2f", v);
    }
}
