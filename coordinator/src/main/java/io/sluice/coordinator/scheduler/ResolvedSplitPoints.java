package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The split-point sets a query resolved, by id: recorded when the scheduler first samples a set,
 * and from then on the only source of its boundaries for the query. A map task run again after a
 * lost output, a stage submitted again, or the whole job run a second time binds the recorded
 * boundaries and never samples again, so every output ever written for a set, and every reader of
 * it, agrees on which key range partition {@code i} holds.
 *
 * <p>Touched by the job's scheduling thread and read afterwards (EXPLAIN ANALYZE), so synchronized.
 */
public final class ResolvedSplitPoints {
    private final Map<String, List<List<Object>>> byId = new TreeMap<>();

    public synchronized Optional<List<List<Object>>> get(String id) {
        return Optional.ofNullable(byId.get(requireNonNull(id, "id is null")));
    }

    /** Records a set's boundaries; recording a set again with other boundaries is a scheduler bug. */
    public synchronized void record(String id, List<List<Object>> boundaries) {
        requireNonNull(boundaries, "boundaries is null");
        List<List<Object>> existing = byId.putIfAbsent(requireNonNull(id, "id is null"), boundaries);
        if (existing != null && !existing.equals(boundaries)) {
            throw new IllegalStateException("split points " + id + " were resolved twice, to different boundaries");
        }
    }

    /** Every recorded set, by id. */
    public synchronized Map<String, List<List<Object>>> all() {
        return Map.copyOf(byId);
    }
}
