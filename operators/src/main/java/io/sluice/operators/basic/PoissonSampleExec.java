package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.HashMix;
import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Sampling with replacement, as Spark's {@code sample(true, fraction, seed)}: each row is kept
 * k times, k drawn from a Poisson distribution of mean {@code fraction} (which may pass 1), so the
 * sample has about {@code fraction} times the input's rows. Partition i draws from a generator
 * seeded by {@code seed} and i, so a rerun over the same partitions keeps the same rows.
 */
public record PoissonSampleExec(ExecutionPlan input, double fraction, long seed) implements ExecutionPlan {
    /** A Poisson draw of a larger mean is a sum of draws of at most this mean (exp(-mean) stays well above 0). */
    private static final double MAX_DRAW_MEAN = 16;

    public PoissonSampleExec {
        requireNonNull(input, "input is null");
        if (!(fraction >= 0 && fraction <= Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("sample fraction with replacement must be at least 0, not " + fraction);
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
        return new PoissonSampleExec(children.get(0), fraction, seed);
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
    public String describe() {
        return "PoissonSampleExec: fraction=" + fraction + ", seed=" + seed;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        SplittableRandom random = new SplittableRandom(HashMix.mix(seed + partition));
        int whole = (int) Math.floor(fraction / MAX_DRAW_MEAN);
        double rest = fraction - whole * MAX_DRAW_MEAN;
        double wholeLimit = Math.exp(-MAX_DRAW_MEAN);
        double restLimit = Math.exp(-rest);
        return new SampledStream(input.execute(partition, context), (rows, picked) -> {
            for (int i = 0; i < rows; i++) {
                int copies = draw(random, restLimit);
                for (int w = 0; w < whole; w++) {
                    copies += draw(random, wholeLimit);
                }
                for (int c = 0; c < copies; c++) {
                    picked.add(i);
                }
            }
        }, context.allocator(), context.batchSize());
    }

    /** Knuth's draw from a Poisson distribution whose mean m has {@code limit = exp(-m)}. */
    private static int draw(SplittableRandom random, double limit) {
        int k = 0;
        double p = random.nextDouble();
        while (p > limit) {
            k++;
            p *= random.nextDouble();
        }
        return k;
    }
}
