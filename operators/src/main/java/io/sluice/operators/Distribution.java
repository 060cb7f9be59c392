package io.sluice.operators;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import java.util.List;
import java.util.stream.Collectors;

/** What an operator requires of how one input's rows are spread over partitions. */
public sealed interface Distribution {
    /** Any placement will do. */
    record Unspecified() implements Distribution {
        @Override
        public String toString() {
            return "unspecified";
        }
    }

    /** All rows in one partition. */
    record SinglePartition() implements Distribution {
        @Override
        public String toString() {
            return "single_partition";
        }
    }

    /** Rows with equal {@code keys} in the same partition. */
    record KeyPartitioned(List<Expr> keys) implements Distribution {
        public KeyPartitioned {
            keys = List.copyOf(keys);
        }

        @Override
        public String toString() {
            return "key_partitioned([" + keys.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "])";
        }
    }

    /**
     * Every partition of the consumer sees all rows of this input: executing the input for any
     * partition index yields the whole input. Only {@link Partitioning.Broadcast} provides it; a
     * broadcast join's build side requires it.
     */
    record Broadcast() implements Distribution {
        @Override
        public String toString() {
            return "broadcast";
        }
    }

    /**
     * Rows ordered across partitions by {@code keys}: every row of partition {@code i} sorts before
     * or equal to every row of partition {@code i + 1}, and rows with equal keys share a partition.
     * Global {@code ORDER BY} (with a local sort) and sort-merge joins (with co-partitioned inputs)
     * require it.
     */
    record RangePartitioned(List<SortKey> keys) implements Distribution {
        public RangePartitioned {
            keys = List.copyOf(keys);
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("range partitioning needs a key");
            }
        }

        @Override
        public String toString() {
            return "range_partitioned([" + keys.stream().map(SortKey::toString).collect(Collectors.joining(", ")) + "])";
        }
    }

    Distribution UNSPECIFIED = new Unspecified();
    Distribution SINGLE = new SinglePartition();
    Distribution BROADCAST = new Broadcast();
}
