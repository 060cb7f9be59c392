package io.sluice.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Facts about an operator's output that never change for an instance, computed once at
 * construction: how rows are partitioned, the order within each partition (empty when unknown),
 * whether the output is bounded, equivalence classes — expressions known to be equal in every
 * row (after a filter {@code a = b} or an inner join on {@code a.k = b.k}) — and constants:
 * expressions with one value in every row (after {@code WHERE k = 'x'}), which any ordering
 * requirement can skip.
 */
public record PlanProperties(Partitioning partitioning, List<SortKey> ordering, boolean bounded,
        List<List<Expr>> equivalences, List<Expr> constants) {
    public PlanProperties {
        requireNonNull(partitioning, "partitioning is null");
        ordering = List.copyOf(ordering);
        List<List<Expr>> copy = new ArrayList<>();
        for (List<Expr> group : equivalences) {
            if (group.size() > 1) {
                copy.add(List.copyOf(group));
            }
        }
        equivalences = List.copyOf(copy);
        constants = List.copyOf(constants);
    }

    public PlanProperties(Partitioning partitioning, List<SortKey> ordering, boolean bounded,
            List<List<Expr>> equivalences) {
        this(partitioning, ordering, bounded, equivalences, List.of());
    }

    public PlanProperties(Partitioning partitioning, List<SortKey> ordering, boolean bounded) {
        this(partitioning, ordering, bounded, List.of(), List.of());
    }

    public static PlanProperties of(Partitioning partitioning) {
        return new PlanProperties(partitioning, List.of(), true);
    }

    public static PlanProperties of(Partitioning partitioning, List<SortKey> ordering) {
        return new PlanProperties(partitioning, ordering, true);
    }

    public PlanProperties withEquivalences(List<List<Expr>> groups) {
        return new PlanProperties(partitioning, ordering, bounded, merge(equivalences, groups), constants);
    }

    public PlanProperties withConstants(List<Expr> more) {
        List<Expr> all = new ArrayList<>(constants);
        for (Expr e : more) {
            if (!all.contains(e)) {
                all.add(e);
            }
        }
        return new PlanProperties(partitioning, ordering, bounded, equivalences, all);
    }

    /**
     * Whether rows in each partition are already ordered by {@code required}: the required keys,
     * less those on constant expressions, must be a prefix of this ordering, less its constants.
     */
    public boolean orderingSatisfies(List<SortKey> required) {
        List<SortKey> need = withoutConstants(required);
        List<SortKey> have = withoutConstants(ordering);
        if (need.size() > have.size()) {
            return false;
        }
        for (int i = 0; i < need.size(); i++) {
            if (!need.get(i).equals(have.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The order of the rows when the partitions are read one after another in partition order (an
     * ordered gather), or empty when that concatenation is in no known order. With several
     * partitions it is this ordering when the partitioning is a range split on a prefix of it (every
     * row of partition {@code i} sorts before or equal to every row of partition {@code i + 1}, and
     * each partition is sorted); with one partition it is simply this ordering.
     */
    public List<SortKey> concatenatedOrdering() {
        if (ordering.isEmpty()) {
            return List.of();
        }
        boolean ranged = partitioning.partitionCount() == 1
                || (partitioning instanceof Partitioning.Range
                        && partitioning.satisfies(new Distribution.RangePartitioned(ordering)));
        return ranged ? ordering : List.of();
    }

    /** The keys less those on constants (known constant columns, and literals). */
    private List<SortKey> withoutConstants(List<SortKey> keys) {
        List<SortKey> out = new ArrayList<>(keys.size());
        for (SortKey k : keys) {
            if (!constants.contains(k.expr()) && !(k.expr() instanceof io.sluice.logical.expr.Literal)) {
                out.add(k);
            }
        }
        return out;
    }

    /**
     * Whether the output meets {@code required}, taking equivalences into account: output hashed on
     * {@code a.k} meets a requirement on {@code b.k} when {@code a.k = b.k} holds in every row.
     */
    public boolean satisfies(Distribution required) {
        if (partitioning.satisfies(required)) {
            return true;
        }
        if (equivalences.isEmpty() || !(required instanceof Distribution.KeyPartitioned keyed)) {
            return false;
        }
        List<Expr> normalized = new ArrayList<>();
        for (Expr k : keyed.keys()) {
            normalized.add(representative(k));
        }
        return normalizedPartitioning().satisfies(new Distribution.KeyPartitioned(normalized));
    }

    private Partitioning normalizedPartitioning() {
        if (partitioning instanceof Partitioning.Hash hash) {
            List<Expr> keys = new ArrayList<>();
            for (Expr k : hash.keys()) {
                keys.add(representative(k));
            }
            return new Partitioning.Hash(keys, hash.partitionCount());
        }
        return partitioning;
    }

    /** The first expression of the class holding {@code e}, or {@code e} itself. */
    public Expr representative(Expr e) {
        for (List<Expr> group : equivalences) {
            if (group.contains(e)) {
                return group.get(0);
            }
        }
        return e;
    }

    private static List<List<Expr>> merge(List<List<Expr>> a, List<List<Expr>> b) {
        List<List<Expr>> groups = new ArrayList<>();
        for (List<Expr> g : a) {
            groups.add(new ArrayList<>(g));
        }
        for (List<Expr> g : b) {
            List<Expr> merged = new ArrayList<>(g);
            for (int i = groups.size() - 1; i >= 0; i--) {
                List<Expr> existing = groups.get(i);
                if (existing.stream().anyMatch(merged::contains)) {
                    for (Expr e : merged) {
                        if (!existing.contains(e)) {
                            existing.add(e);
                        }
                    }
                    merged = existing;
                    groups.remove(i);
                }
            }
            groups.add(merged);
        }
        return groups;
    }
}
