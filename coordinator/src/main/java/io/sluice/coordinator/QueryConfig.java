package io.sluice.coordinator;

import io.sluice.optimizer.logical.ReorderJoins;
import io.sluice.optimizer.physical.JoinSelection;
import io.sluice.plan.SluiceException;
import java.util.List;

/**
 * Settings one query runs with; {@code SET name = value} in a script changes them for the
 * statements after it.
 *
 * <ul>
 *   <li>{@code sluice.optimizer.enabled}: whether the logical rules run at all (default true); false
 *       plans the query exactly as written, which is how tests check that optimizing never changes
 *       a result.</li>
 *   <li>{@code sluice.optimizer.max-passes}: the logical optimizer's pass cap (default 3).</li>
 *   <li>{@code sluice.optimizer.skip-failed-rules}: a logical rule that throws is skipped (its
 *       input plan kept) instead of failing the query (default false).</li>
 *   <li>{@code sluice.shuffle.partitions}: partitions after a shuffle; 0 means twice the cluster's
 *       task slots (default 0).</li>
 *   <li>{@code sluice.join.broadcast-threshold}: bytes up to which a join input is broadcast; -1
 *       never (default 10 MiB).</li>
 *   <li>{@code sluice.join.sort-merge-threshold}: bytes above which even the smaller join input is
 *       not hashed and the join is sort-merge (default 512 MiB).</li>
 *   <li>{@code sluice.optimizer.join-reorder}: whether inner joins are reordered by estimated cost
 *       (default true); false joins in the order written.</li>
 *   <li>{@code sluice.optimizer.join-reorder.dp-limit}: relations up to which join orders are
 *       enumerated exhaustively; more are ordered greedily (default 10, at most 16).</li>
 *   <li>{@code sluice.result.max-bytes}: the most a query's result may take as it is collected on the
 *       coordinator for the client (Arrow bytes, as {@code 64m} or a number; default 1 GiB); a larger
 *       result fails the query and frees what was fetched.</li>
 * </ul>
 */
public record QueryConfig(int maxOptimizerPasses, boolean skipFailedRules, int shufflePartitions,
        long broadcastThreshold, long sortMergeThreshold, boolean optimizerEnabled, boolean joinReorder,
        int joinReorderDpLimit, long resultMaxBytes) {
    public static final List<String> NAMES = List.of("sluice.optimizer.enabled", "sluice.optimizer.max-passes",
            "sluice.optimizer.skip-failed-rules", "sluice.shuffle.partitions", "sluice.join.broadcast-threshold",
            "sluice.join.sort-merge-threshold", "sluice.optimizer.join-reorder", "sluice.optimizer.join-reorder.dp-limit",
            "sluice.result.max-bytes");

    /** Default cap of a result the coordinator collects for a client. */
    public static final long DEFAULT_RESULT_MAX_BYTES = 1L << 30;

    public QueryConfig {
        if (maxOptimizerPasses < 1) {
            throw new SluiceException("sluice.optimizer.max-passes must be at least 1, not " + maxOptimizerPasses);
        }
        if (shufflePartitions < 0) {
            throw new SluiceException("sluice.shuffle.partitions must not be negative, not " + shufflePartitions);
        }
        if (broadcastThreshold < -1) {
            throw new SluiceException("sluice.join.broadcast-threshold must be -1 (never) or more, not " + broadcastThreshold);
        }
        if (joinReorderDpLimit < 2 || joinReorderDpLimit > 16) {
            throw new SluiceException("sluice.optimizer.join-reorder.dp-limit must be between 2 and 16, not "
                    + joinReorderDpLimit);
        }
        if (resultMaxBytes < 1) {
            throw new SluiceException("sluice.result.max-bytes must be positive, not " + resultMaxBytes);
        }
        if (sortMergeThreshold < 0) {
            throw new SluiceException("sluice.join.sort-merge-threshold must not be negative, not " + sortMergeThreshold);
        }
    }

    public static QueryConfig defaults() {
        return new QueryConfig(3, false, 0, JoinSelection.DEFAULT.broadcastThresholdBytes(),
                JoinSelection.DEFAULT.sortMergeThresholdBytes(), true, true, ReorderJoins.DEFAULT_DP_LIMIT,
                DEFAULT_RESULT_MAX_BYTES);
    }

    public JoinSelection joinSelection() {
        return new JoinSelection(broadcastThreshold, sortMergeThreshold);
    }

    /** This config with one setting changed; an unknown name or a bad value is a user error naming it. */
    public QueryConfig with(String name, String value) {
        try {
            return switch (name) {
                case "sluice.optimizer.enabled" -> new QueryConfig(maxOptimizerPasses, skipFailedRules,
                        shufflePartitions, broadcastThreshold, sortMergeThreshold, parseBoolean(name, value), joinReorder,
                        joinReorderDpLimit, resultMaxBytes);
                case "sluice.optimizer.max-passes" -> new QueryConfig(Integer.parseInt(value), skipFailedRules,
                        shufflePartitions, broadcastThreshold, sortMergeThreshold, optimizerEnabled, joinReorder, joinReorderDpLimit, resultMaxBytes);
                case "sluice.optimizer.skip-failed-rules" -> new QueryConfig(maxOptimizerPasses, parseBoolean(name, value),
                        shufflePartitions, broadcastThreshold, sortMergeThreshold, optimizerEnabled, joinReorder, joinReorderDpLimit, resultMaxBytes);
                case "sluice.shuffle.partitions" -> new QueryConfig(maxOptimizerPasses, skipFailedRules,
                        Integer.parseInt(value), broadcastThreshold, sortMergeThreshold, optimizerEnabled, joinReorder, joinReorderDpLimit, resultMaxBytes);
                case "sluice.join.broadcast-threshold" -> new QueryConfig(maxOptimizerPasses, skipFailedRules,
                        shufflePartitions, Long.parseLong(value), sortMergeThreshold, optimizerEnabled, joinReorder, joinReorderDpLimit, resultMaxBytes);
                case "sluice.join.sort-merge-threshold" -> new QueryConfig(maxOptimizerPasses, skipFailedRules,
                        shufflePartitions, broadcastThreshold, Long.parseLong(value), optimizerEnabled, joinReorder, joinReorderDpLimit, resultMaxBytes);
                case "sluice.optimizer.join-reorder" -> new QueryConfig(maxOptimizerPasses, skipFailedRules,
                        shufflePartitions, broadcastThreshold, sortMergeThreshold, optimizerEnabled, parseBoolean(name, value),
                        joinReorderDpLimit, resultMaxBytes);
                case "sluice.optimizer.join-reorder.dp-limit" -> new QueryConfig(maxOptimizerPasses, skipFailedRules,
                        shufflePartitions, broadcastThreshold, sortMergeThreshold, optimizerEnabled, joinReorder,
                        Integer.parseInt(value), resultMaxBytes);
                case "sluice.result.max-bytes" -> new QueryConfig(maxOptimizerPasses, skipFailedRules, shufflePartitions,
                        broadcastThreshold, sortMergeThreshold, optimizerEnabled, joinReorder, joinReorderDpLimit,
                        io.sluice.plan.memory.Bytes.parse(name, value));
                default -> throw new SluiceException("unknown setting '" + name + "'; settings: " + String.join(", ", NAMES));
            };
        } catch (NumberFormatException e) {
            throw new SluiceException("setting " + name + " needs a whole number, not '" + value + "'");
        }
    }

    private static boolean parseBoolean(String name, String value) {
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new SluiceException("setting " + name + " needs true or false, not '" + value + "'");
    }
}
