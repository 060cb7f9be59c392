package io.sluice.plan.physical;

import io.sluice.plan.expr.Expr;
import java.util.List;
import java.util.stream.Collectors;

/** How an operator's output rows are spread over its partitions. */
public sealed interface Partitioning {
    int partitionCount();

    /** Whether rows placed this way meet {@code required}. */
    boolean satisfies(Distribution required);

    /** Nothing known about which row lands where. */
    record Unknown(int partitionCount) implements Partitioning {
        public Unknown {
            checkCount(partitionCount);
        }

        @Override
        public boolean satisfies(Distribution required) {
            return required instanceof Distribution.Unspecified
                    || (partitionCount == 1 && required instanceof Distribution.KeyPartitioned)
                    || (partitionCount == 1 && required instanceof Distribution.SinglePartition);
        }

        @Override
        public String toString() {
            return "unknown(" + partitionCount + ")";
        }
    }

    /** Everything in one partition. */
    record Single() implements Partitioning {
        @Override
        public int partitionCount() {
            return 1;
        }

        @Override
        public boolean satisfies(Distribution required) {
            return true;
        }

        @Override
        public String toString() {
            return "single";
        }
    }

    /** Rows whose {@code keys} are equal land in the same partition: {@code hash(keys) mod n}. */
    record Hash(List<Expr> keys, int partitionCount) implements Partitioning {
        public Hash {
            keys = List.copyOf(keys);
            checkCount(partitionCount);
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("hash partitioning needs a key");
            }
        }

        @Override
        public boolean satisfies(Distribution required) {
            if (required instanceof Distribution.Unspecified) {
                return true;
            }
            if (required instanceof Distribution.SinglePartition) {
                return partitionCount == 1;
            }
            if (required instanceof Distribution.KeyPartitioned k) {
                // Hashing on a subset of the required keys keeps equal required keys together.
                return partitionCount == 1 || k.keys().containsAll(keys);
            }
            return false;
        }

        @Override
        public String toString() {
            return "hash([" + keys.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "], "
                    + partitionCount + ")";
        }
    }

    /** Rows dealt out in turn. */
    record RoundRobin(int partitionCount) implements Partitioning {
        public RoundRobin {
            checkCount(partitionCount);
        }

        @Override
        public boolean satisfies(Distribution required) {
            return required instanceof Distribution.Unspecified || partitionCount == 1;
        }

        @Override
        public String toString() {
            return "round_robin(" + partitionCount + ")";
        }
    }

    private static void checkCount(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("partition count must be positive: " + n);
        }
    }
}
