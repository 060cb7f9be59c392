package io.sluice.common;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The results of one walk over a plan, keyed by node identity, so that a node shared by several
 * parents (a WITH query read twice) is visited once: a chain of such nodes then costs its size,
 * not the number of paths through it (2^n for n WITH queries each reading the one before twice).
 *
 * <p>A walk whose result for a node depends on what the parent asks of it (the columns it needs,
 * the filter pushed into it) keys by that demand too: each distinct demand is answered once, and
 * two parents asking different things each get their own answer, never the other's. Computing a
 * result may recurse into this memo (values are stored after they are computed). One memo serves
 * one walk; it holds no lock.
 */
public final class NodeMemo<N, V> {
    private final Map<N, V> plain = new IdentityHashMap<>();
    private final Map<N, Map<Object, V>> byDemand = new IdentityHashMap<>();

    /** {@code compute(node)}, computed once per node. */
    public V get(N node, Function<N, V> compute) {
        V known = plain.get(node);
        if (known == null) {
            known = compute.apply(node);
            plain.put(node, known);
        }
        return known;
    }

    /** {@code compute}'s answer for {@code node} under {@code demand} (compared by equals, may be null), once per pair. */
    public V get(N node, Object demand, Supplier<V> compute) {
        Map<Object, V> answers = byDemand.computeIfAbsent(node, n -> new HashMap<>());
        V known = answers.get(demand);
        if (known == null) {
            known = compute.get();
            answers.put(demand, known);
        }
        return known;
    }
}
