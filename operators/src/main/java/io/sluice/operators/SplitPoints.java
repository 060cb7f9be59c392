package io.sluice.operators;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The split points of a range partitioning, shared by every input that must be split alike. At
 * planning time only the {@code id} is known ({@code boundaries} is null): both sides of a
 * sort-merge join refer to the same id, and the scheduler later samples the inputs and binds the
 * same boundaries into both map stages (see {@link Partitioning.Range#withBoundaries}).
 *
 * <p>{@code boundaries} are the resolved split rows in ascending sort-key order, at most
 * {@code partitionCount - 1} of them, each with one value per sort key held as the engine holds
 * it: {@code Long} (integers, dates as epoch days), {@code BigDecimal} (decimals, carrying their
 * scale: a boundary of 1.5 is 1.5 for a key of any scale, where an unscaled long would be 150 at
 * scale 2 and 15000 at scale 4), {@code Double}, {@code String}, {@code Boolean}, or null for NULL. A row goes to the partition whose index is the
 * number of boundaries that sort strictly before it, so rows equal to boundary {@code i} land in
 * partition {@code i} and equal keys always share a partition. Fewer boundaries than
 * {@code partitionCount - 1} leave the last partitions empty (a heavy key is not split).
 */
public record SplitPoints(String id, List<List<Object>> boundaries) {
    public SplitPoints {
        requireNonNull(id, "id is null");
        if (id.isEmpty()) {
            throw new IllegalArgumentException("split points id is empty");
        }
        if (boundaries != null) {
            List<List<Object>> copy = new ArrayList<>(boundaries.size());
            int width = -1;
            for (List<Object> row : boundaries) {
                requireNonNull(row, "boundary row is null");
                if (width >= 0 && row.size() != width) {
                    throw new IllegalArgumentException("boundary rows of split points " + id + " differ in width");
                }
                width = row.size();
                for (Object v : row) {
                    if (v != null && !(v instanceof Long || v instanceof java.math.BigDecimal || v instanceof Double
                            || v instanceof String || v instanceof Boolean)) {
                        throw new IllegalArgumentException("boundary value " + v + " (" + v.getClass().getSimpleName()
                                + ") is not a boundary value (Long, BigDecimal, Double, String, Boolean or null)");
                    }
                }
                // List.copyOf rejects null elements, and NULL is a legal key value.
                copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
            }
            boundaries = Collections.unmodifiableList(copy);
        }
    }

    /** Split points not yet resolved: known by id only. */
    public static SplitPoints unresolved(String id) {
        return new SplitPoints(id, null);
    }

    public boolean resolved() {
        return boundaries != null;
    }

    /** The same id bound to {@code boundaries}. */
    public SplitPoints resolve(List<List<Object>> newBoundaries) {
        return new SplitPoints(id, requireNonNull(newBoundaries, "boundaries is null"));
    }

    @Override
    public String toString() {
        return id + (boundaries == null ? "(unresolved)" : "(" + boundaries.size() + " boundaries)");
    }
}
