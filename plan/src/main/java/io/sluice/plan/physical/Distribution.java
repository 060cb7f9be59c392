package io.sluice.plan.physical;

import io.sluice.plan.expr.Expr;
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

    Distribution UNSPECIFIED = new Unspecified();
    Distribution SINGLE = new SinglePartition();
}
