package io.sluice.plan.physical;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.SortKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Facts about an operator's output that never change for an instance, computed once at
 * construction: how rows are partitioned, the order within each partition (empty when unknown),
 * whether the output is bounded, and equivalence classes — expressions known to be equal in every
 * row (after a filter {@code a = b} or an inner join on {@code a.k = b.k}).
 */
public record PlanProperties(Partitioning partitioning, List<SortKey> ordering, boolean bounded,
        List<List<Expr>> equivalences) {
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
    }

    public PlanProperties(Partitioning partitioning, List<SortKey> ordering, boolean bounded) {
        this(partitioning, ordering, bounded, List.of());
    }

    public static PlanProperties of(Partitioning partitioning) {
        return new PlanProperties(partitioning, List.of(), true);
    }

    public static PlanProperties of(Partitioning partitioning, List<SortKey> ordering) {
        return new PlanProperties(partitioning, ordering, true);
    }

    public PlanProperties withEquivalences(List<List<Expr>> groups) {
        return new PlanProperties(partitioning, ordering, bounded, merge(equivalences, groups));
    }

    /** Whether rows in each partition are already ordered by {@code required} (a prefix suffices). */
    public boolean orderingSatisfies(List<SortKey> required) {
        if (required.size() > ordering.size()) {
            return false;
        }
        for (int i = 0; i < required.size(); i++) {
            if (!required.get(i).equals(ordering.get(i))) {
                return false;
            }
        }
        return true;
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
