package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.HashMix;
import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.plan.Sample;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The logical {@code Sample}, per partition, in input order: without replacement each row is kept
 * with probability {@code fraction} (Bernoulli); {@code withReplacement} each row is kept k times,
 * k drawn from a Poisson distribution of mean {@code fraction} (which may pass 1), as Spark's
 * {@code sample(true, fraction, seed)}. Partition i draws from a generator seeded by {@code seed}
 * and i, so a retried task keeps the same rows as the first attempt over the same input.
 */
public record RowSampleExec(ExecutionPlan input, double fraction, long seed, boolean withReplacement)
        implements ExecutionPlan {
    /** A Poisson draw of a larger mean is a sum of draws of at most this mean (exp(-mean) stays well above 0). */
    private static final double MAX_DRAW_MEAN = 16;

    public RowSampleExec {
        requireNonNull(input, "input is null");
        if (withReplacement ? !(fraction >= 0 && fraction <= Sample.MAX_REPLACEMENT_FRACTION) : !(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("sample fraction must be " + (withReplacement ? "at least 0" : "between 0 and 1")
                    + ", not " + fraction);
        }
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RowSampleExec(children.get(0), fraction, seed, withReplacement);
    }

    @Override
    public PlanProperties properties() {
        return input.properties();
    }

    @Override
    public List<Boolean> maintainsInputOrder() {
        return List.of(true);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return withReplacement ? CardinalityEffect.UNKNOWN : CardinalityEffect.LOWER_EQUAL;
    }

    @Override
    public String describe() {
        return "RowSampleExec: fraction=" + fraction + ", seed=" + seed + (withReplacement ? ", with replacement" : "");
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        SplittableRandom random = new SplittableRandom(HashMix.mix(seed + partition));
        BatchStream in = input.execute(partition, context);
        if (!withReplacement) {
            return new SampledStream(in, (rows, picked) -> {
                for (int i = 0; i < rows; i++) {
                    if (random.nextDouble() < fraction) {
                        picked.add(i);
                    }
                }
            }, context.allocator(), context.batchSize());
        }
        int whole = (int) Math.floor(fraction / MAX_DRAW_MEAN);
        double wholeLimit = Math.exp(-MAX_DRAW_MEAN);
        double restLimit = Math.exp(-(fraction - whole * MAX_DRAW_MEAN));
        return new SampledStream(in, (rows, picked) -> {
            for (int i = 0; i < rows; i++) {
                int copies = poisson(random, restLimit);
                for (int w = 0; w < whole; w++) {
                    copies += poisson(random, wholeLimit);
                }
                for (int c = 0; c < copies; c++) {
                    picked.add(i);
                }
            }
        }, context.allocator(), context.batchSize());
    }

    /** Knuth's draw from a Poisson distribution whose mean m has {@code limit = exp(-m)}. */
    private static int poisson(SplittableRandom random, double limit) {
        int k = 0;
        double p = random.nextDouble();
        while (p > limit) {
            k++;
            p *= random.nextDouble();
        }
        return k;
    }
}
