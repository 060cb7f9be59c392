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
 * Keeps each row with probability {@code fraction}, per partition, in input order (the logical
 * {@code Sample}). Partition i draws from a generator seeded by {@code seed} and i, so a retried task
 * keeps the same rows as the first attempt over the same input.
 */
public record BernoulliSampleExec(ExecutionPlan input, double fraction, long seed) implements ExecutionPlan {
    public BernoulliSampleExec {
        requireNonNull(input, "input is null");
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("sample fraction must be between 0 and 1, not " + fraction);
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
        return new BernoulliSampleExec(children.get(0), fraction, seed);
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
        return CardinalityEffect.LOWER_EQUAL;
    }

    @Override
    public String describe() {
        return "BernoulliSampleExec: fraction=" + fraction + ", seed=" + seed;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        SplittableRandom random = new SplittableRandom(HashMix.mix(seed + partition));
        return new SampledStream(input.execute(partition, context), (rows, picked) -> {
            for (int i = 0; i < rows; i++) {
                if (random.nextDouble() < fraction) {
                    picked.add(i);
                }
            }
        }, context.allocator(), context.batchSize());
    }
}
