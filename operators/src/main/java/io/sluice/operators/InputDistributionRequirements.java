package io.sluice.operators;

/** Whether an operator's inputs may be partitioned independently or must be co-partitioned. */
public enum InputDistributionRequirements {
    /** Each input only has to meet its own required distribution. */
    INDEPENDENT,
    /** Partition i of every input must cover the same keys (a partitioned join). */
    CO_PARTITIONED
}
