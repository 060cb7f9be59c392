package io.sluice.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How an operator's output rows are spread over its partitions.
 *
 * <p>Only {@link Broadcast} satisfies {@link Distribution.Broadcast}: a consumer that requires it
 * executes the input for every one of its own partition indexes, which a one-partition input
 * cannot serve.
 */
public sealed interface Partitioning {
    int partitionCount();

    /** Whether rows placed this way meet {@code required}. */
    boolean satisfies(Distribution required);

    /**
     * Whether this and {@code other} split rows by the same scheme, so that, given corresponding
     * keys, partition {@code i} of each holds the same key values: both hash with equal counts and
     * key counts, both range with the same split points (id, and boundaries once resolved), equal
     * counts and key directions, or both have a single partition. Which key corresponds to which
     * is the caller's to check; {@link #coPartitioned} does both.
     */
    default boolean compatibleWith(Partitioning other) {
        requireNonNull(other, "other is null");
        if (this instanceof Broadcast || other instanceof Broadcast) {
            return this instanceof Broadcast && other instanceof Broadcast;
        }
        if (partitionCount() == 1 && other.partitionCount() == 1) {
            return true;
        }
        if (this instanceof Hash a && other instanceof Hash b) {
            return a.partitionCount() == b.partitionCount() && a.keys().size() == b.keys().size();
        }
        if (this instanceof Range a && other instanceof Range b) {
            if (a.partitionCount() != b.partitionCount() || a.keys().size() != b.keys().size()
                    || !a.splits().id().equals(b.splits().id())) {
                return false;
            }
            if (a.splits().resolved() && b.splits().resolved()
                    && !a.splits().boundaries().equals(b.splits().boundaries())) {
                return false;
            }
            for (int i = 0; i < a.keys().size(); i++) {
                SortKey ka = a.keys().get(i);
                SortKey kb = b.keys().get(i);
                if (ka.ascending() != kb.ascending() || ka.nullsFirst() != kb.nullsFirst()) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * Whether two inputs of a key-matching operator (a join on {@code aKeys[j] = bKeys[j]}) are
     * co-partitioned: their partitionings are {@linkplain #compatibleWith compatible} and the
     * {@code i}-th partitioning key of each is the {@code j}-th join key of its side for the same
     * {@code j}. Then equal join keys meet in the same partition index on both sides.
     */
    static boolean coPartitioned(Partitioning a, List<Expr> aKeys, Partitioning b, List<Expr> bKeys) {
        if (aKeys.size() != bKeys.size()) {
            throw new IllegalArgumentException("key lists differ in length: " + aKeys.size() + " and " + bKeys.size());
        }
        if (!a.compatibleWith(b)) {
            return false;
        }
        List<Expr> aPart;
        List<Expr> bPart;
        if (a instanceof Hash ha && b instanceof Hash hb) {
            aPart = ha.keys();
            bPart = hb.keys();
        } else if (a instanceof Range ra && b instanceof Range rb) {
            aPart = ra.keys().stream().map(SortKey::expr).toList();
            bPart = rb.keys().stream().map(SortKey::expr).toList();
        } else {
            return true; // both one partition, or both broadcast
        }
        for (int i = 0; i < aPart.size(); i++) {
            boolean paired = false;
            for (int j = 0; j < aKeys.size() && !paired; j++) {
                paired = aKeys.get(j).equals(aPart.get(i)) && bKeys.get(j).equals(bPart.get(i));
            }
            if (!paired) {
                return false;
            }
        }
        return true;
    }

    /**
     * This partitioning as seen through an operator that renames or drops columns (a projection,
     * a partial aggregate): every key expression is replaced by {@code map}'s image of it. When some
     * key has no image the placement is no longer expressible over the output, so the answer is
     * {@link Unknown} with the same count; a prefix of range keys would not do, since splitting on
     * {@code (a, b)} does not keep equal {@code a} together. Partitionings without keys are returned
     * unchanged.
     */
    default Partitioning mapKeys(Function<Expr, Optional<Expr>> map) {
        requireNonNull(map, "map is null");
        if (this instanceof Hash hash) {
            List<Expr> keys = new ArrayList<>();
            for (Expr k : hash.keys()) {
                Optional<Expr> image = map.apply(k);
                if (image.isEmpty()) {
                    return new Unknown(partitionCount());
                }
                keys.add(image.get());
            }
            return new Hash(keys, hash.partitionCount());
        }
        if (this instanceof Range range) {
            List<SortKey> keys = new ArrayList<>();
            for (SortKey k : range.keys()) {
                Optional<Expr> image = map.apply(k.expr());
                if (image.isEmpty()) {
                    return new Unknown(partitionCount());
                }
                keys.add(new SortKey(image.get(), k.ascending(), k.nullsFirst()));
            }
            return new Range(keys, range.splits(), range.partitionCount());
        }
        return this;
    }

    /** Nothing known about which row lands where. */
    record Unknown(int partitionCount) implements Partitioning {
        public Unknown {
            checkCount(partitionCount);
        }

        @Override
        public boolean satisfies(Distribution required) {
            return required instanceof Distribution.Unspecified || onePartitionSatisfies(partitionCount, required);
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
            return !(required instanceof Distribution.Broadcast);
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
            if (required instanceof Distribution.Unspecified || onePartitionSatisfies(partitionCount, required)) {
                return true;
            }
            if (required instanceof Distribution.KeyPartitioned k) {
                // Hashing on a subset of the required keys keeps equal required keys together.
                return k.keys().containsAll(keys);
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
            return required instanceof Distribution.Unspecified || onePartitionSatisfies(partitionCount, required);
        }

        @Override
        public String toString() {
            return "round_robin(" + partitionCount + ")";
        }
    }

    /**
     * Every consumer partition reads all rows: a shuffle with this partitioning writes everything
     * to block 0 and its reader serves block 0 for any requested partition index. The count is 1
     * because there is one distinct partition; the consumer decides how many times it is read.
     * Satisfies {@link Distribution.Broadcast} and {@link Distribution.Unspecified}.
     */
    record Broadcast() implements Partitioning {
        @Override
        public int partitionCount() {
            return 1;
        }

        @Override
        public boolean satisfies(Distribution required) {
            return required instanceof Distribution.Broadcast || required instanceof Distribution.Unspecified;
        }

        @Override
        public String toString() {
            return "broadcast";
        }
    }

    /**
     * Rows split into key ranges by {@code splits}: partition {@code i} holds the rows that sort
     * after boundary {@code i - 1} and before or equal to boundary {@code i} under {@code keys}
     * (directions and NULL placement included). Equal keys share a partition.
     *
     * <p>Satisfies {@link Distribution.RangePartitioned} when its keys are the required keys or a
     * prefix of them: splitting on {@code (a)} keeps equal {@code (a, b)} together and orders
     * partitions by {@code (a, b)}. Splitting on more keys than required does not: {@code (a, b)}
     * may place one {@code a} value in two partitions, which a sort-merge join on {@code a} cannot
     * accept. Satisfies {@link Distribution.KeyPartitioned} when its key expressions are all among
     * the required ones, as hash partitioning does.
     */
    record Range(List<SortKey> keys, SplitPoints splits, int partitionCount) implements Partitioning {
        public Range {
            keys = List.copyOf(keys);
            requireNonNull(splits, "splits is null");
            checkCount(partitionCount);
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("range partitioning needs a key");
            }
            if (splits.resolved()) {
                if (splits.boundaries().size() > partitionCount - 1) {
                    throw new IllegalArgumentException(splits.boundaries().size() + " boundaries for " + partitionCount
                            + " partitions (at most " + (partitionCount - 1) + ")");
                }
                for (List<Object> row : splits.boundaries()) {
                    if (row.size() != keys.size()) {
                        throw new IllegalArgumentException("boundary row " + row + " has " + row.size()
                                + " values for " + keys.size() + " sort keys");
                    }
                }
            }
        }

        /** The same partitioning with its split points bound to {@code boundaries}. */
        public Range withBoundaries(List<List<Object>> boundaries) {
            return new Range(keys, splits.resolve(boundaries), partitionCount);
        }

        @Override
        public boolean satisfies(Distribution required) {
            if (required instanceof Distribution.Unspecified || onePartitionSatisfies(partitionCount, required)) {
                return true;
            }
            if (required instanceof Distribution.KeyPartitioned k) {
                for (SortKey key : keys) {
                    if (!k.keys().contains(key.expr())) {
                        return false;
                    }
                }
                return true;
            }
            if (required instanceof Distribution.RangePartitioned r) {
                return keys.size() <= r.keys().size() && r.keys().subList(0, keys.size()).equals(keys);
            }
            return false;
        }

        @Override
        public String toString() {
            return "range([" + keys.stream().map(SortKey::toString).collect(Collectors.joining(", ")) + "], "
                    + splits + ", " + partitionCount + ")";
        }
    }

    /** One partition meets every requirement except broadcast (which needs any index to be readable). */
    private static boolean onePartitionSatisfies(int partitionCount, Distribution required) {
        return partitionCount == 1 && !(required instanceof Distribution.Broadcast);
    }

    private static void checkCount(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("partition count must be positive: " + n);
        }
    }
}
