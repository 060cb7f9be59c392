package io.sluice.operators.aggregate;

/** The phase of a two-phase aggregation. */
public enum AggregateMode {
    /** Raw rows in, one state row per group of this partition out. */
    PARTIAL,
    /** Partial states in (all states of a group in this partition), final values out. */
    FINAL
}
