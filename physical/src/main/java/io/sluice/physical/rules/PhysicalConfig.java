package io.sluice.physical.rules;

/** Settings the physical optimizer needs: {@code sluice.shuffle.partitions}. */
public record PhysicalConfig(int shufflePartitions) {
    public PhysicalConfig {
        if (shufflePartitions < 1) {
            throw new IllegalArgumentException("sluice.shuffle.partitions must be positive: " + shufflePartitions);
        }
    }
}
