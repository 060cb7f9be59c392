package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Statistics;
import java.util.List;

/**
 * Keeps each input row with probability {@code fraction}, independently (Bernoulli sampling without
 * replacement, as Spark's {@code sample(fraction, seed)}), or {@code withReplacement} a number of
 * times drawn from a Poisson distribution of mean {@code fraction} (Spark's
 * {@code sample(true, fraction, seed)}; the fraction may pass 1); the draws of input partition i
 * come from {@code seed} and i, so a rerun over the same partitions keeps the same rows.
 */
public record Sample(LogicalPlan input, double fraction, long seed, boolean withReplacement) implements LogicalPlan {
    /** A bound on the mean copies per row with replacement: each picked row's copies are held per input batch. */
    public static final double MAX_REPLACEMENT_FRACTION = 1000;

    public Sample {
        requireNonNull(input, "input is null");
        if (withReplacement ? !(fraction >= 0 && fraction <= MAX_REPLACEMENT_FRACTION) : !(fraction >= 0 && fraction <= 1)) {
            throw new SluiceException("sample fraction must be " + (withReplacement
                    ? "between 0 and " + (int) MAX_REPLACEMENT_FRACTION + " with replacement" : "between 0 and 1")
                    + ", not " + fraction);
        }
    }

    /** Without replacement. */
    public Sample(LogicalPlan input, double fraction, long seed) {
        this(input, fraction, seed, false);
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Sample(children.get(0), fraction, seed, withReplacement);
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "Sample: fraction=" + fraction + ", seed=" + seed + (withReplacement ? ", with replacement" : "");
    }

    /** The input's rows times the fraction, inexact. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        return Statistics.unknown(schema(), context.of(input).rowCount() * fraction);
    }
}
