package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.optimizer.ReorderJoins;
import io.sluice.physical.rules.JoinSelection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Settings one query runs with; {@code SET name = value} in a script changes them for the
 * statements after it. Every setting is one {@link Setting} below: its name, default, and the
 * check its value must pass; the typed accessors read them.
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
 *   <li>{@code sluice.join.runtime-filter-threshold}: estimated build-side bytes up to which a
 *       partitioned hash join filters its probe side by the build side's keys before the shuffle;
 *       -1 never (default 64 MiB).</li>
 *   <li>{@code sluice.optimizer.join-reorder}: whether inner joins are reordered by estimated cost
 *       (default true); false joins in the order written.</li>
 *   <li>{@code sluice.optimizer.join-reorder.dp-limit}: relations up to which join orders are
 *       enumerated exhaustively; more are ordered greedily (default 10, at most 16).</li>
 *   <li>{@code sluice.sort.range-partitioned}: a global ORDER BY without LIMIT range-partitions on
 *       its keys, sorts each partition and concatenates them in order (default true); false
 *       gathers every row into one partition and sorts it there.</li>
 *   <li>{@code sluice.sort.range-partitioned.min-rows}: a global ORDER BY whose input is estimated
 *       at fewer rows sorts in one partition (default 500000): the sampling run and the extra
 *       stage of a range-partitioned sort cost more than they save on a small result; 0 always
 *       range-partitions.</li>
 *   <li>{@code sluice.result.max-bytes}: the most a query's result may take when it is collected
 *       (a client's {@code collect()}, {@code sluice sql}; Arrow bytes, as {@code 64m} or a number;
 *       default 1 GiB); a larger result fails the query and frees what was fetched. A result read as
 *       a stream ({@code toLocalIterator()}) is not capped: its reader holds one batch at a time.</li>
 *   <li>{@code sluice.result.buffer-bytes}: the Arrow bytes the coordinator fetches ahead of the
 *       client reading a result (default 16 MiB, plus the block being fetched).</li>
 * </ul>
 */
public final class QueryConfig {
    /** One setting: its name, default, what a valid value is, and the message when it is not. */
    private record Setting(String name, Object defaultValue, Predicate<Object> valid, String requirement, boolean size) {
        Setting(String name, Object defaultValue, Predicate<Object> valid, String requirement) {
            this(name, defaultValue, valid, requirement, false);
        }
    }

    /** Default cap of a result the coordinator collects for a client. */
    public static final long DEFAULT_RESULT_MAX_BYTES = 1L << 30;
    /** Estimated rows below which a global ORDER BY sorts in one partition. */
    public static final long DEFAULT_RANGE_SORT_MIN_ROWS = 500_000;

    /** Default Arrow bytes the coordinator fetches ahead of a client reading a streamed result. */
    public static final long DEFAULT_RESULT_BUFFER_BYTES = 16L << 20;

    private static final List<Setting> SETTINGS = List.of(
            new Setting("sluice.optimizer.enabled", true, v -> true, "true or false"),
            new Setting("sluice.optimizer.max-passes", 3L, v -> (long) v >= 1, "at least 1"),
            new Setting("sluice.optimizer.skip-failed-rules", false, v -> true, "true or false"),
            new Setting("sluice.shuffle.partitions", 0L, v -> (long) v >= 0 && (long) v <= Integer.MAX_VALUE,
                    "not negative"),
            new Setting("sluice.join.broadcast-threshold", JoinSelection.DEFAULT.broadcastThresholdBytes(),
                    v -> (long) v >= -1, "-1 (never) or more"),
            new Setting("sluice.join.sort-merge-threshold", JoinSelection.DEFAULT.sortMergeThresholdBytes(),
                    v -> (long) v >= 0, "not negative"),
            new Setting("sluice.join.runtime-filter-threshold", JoinSelection.DEFAULT.runtimeFilterMaxBuildBytes(),
                    v -> (long) v >= -1, "-1 (never) or more"),
            new Setting("sluice.optimizer.join-reorder", true, v -> true, "true or false"),
            new Setting("sluice.optimizer.join-reorder.dp-limit", (long) ReorderJoins.DEFAULT_DP_LIMIT,
                    v -> (long) v >= 2 && (long) v <= 16, "between 2 and 16"),
            new Setting("sluice.sort.range-partitioned", true, v -> true, "true or false"),
            new Setting("sluice.sort.range-partitioned.min-rows", DEFAULT_RANGE_SORT_MIN_ROWS, v -> (long) v >= 0,
                    "not negative"),
            new Setting("sluice.result.max-bytes", DEFAULT_RESULT_MAX_BYTES, v -> (long) v >= 1, "positive", true),
            new Setting("sluice.result.buffer-bytes", DEFAULT_RESULT_BUFFER_BYTES, v -> (long) v >= 0, "not negative", true));

    public static final List<String> NAMES = SETTINGS.stream().map(Setting::name).toList();

    private final Map<String, Object> values;

    private QueryConfig(Map<String, Object> values) {
        this.values = Map.copyOf(requireNonNull(values, "values is null"));
    }

    public static QueryConfig defaults() {
        Map<String, Object> values = new LinkedHashMap<>();
        SETTINGS.forEach(s -> values.put(s.name(), s.defaultValue()));
        return new QueryConfig(values);
    }

    /** This config with one setting changed; an unknown name or a bad value is a user error naming it. */
    public QueryConfig with(String name, String value) {
        Setting setting = SETTINGS.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new SluiceException("unknown setting '" + name + "'; settings: " + String.join(", ", NAMES)));
        Object parsed = parse(setting, value.trim());
        if (!setting.valid().test(parsed)) {
            throw new SluiceException(name + " must be " + setting.requirement() + ", not " + value);
        }
        Map<String, Object> changed = new LinkedHashMap<>(values);
        changed.put(name, parsed);
        return new QueryConfig(changed);
    }

    private static Object parse(Setting setting, String value) {
        if (setting.defaultValue() instanceof Boolean) {
            if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(value);
            }
            throw new SluiceException("setting " + setting.name() + " needs true or false, not '" + value + "'");
        }
        if (setting.size()) {
            return io.sluice.operators.memory.Bytes.parse(setting.name(), value);
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new SluiceException("setting " + setting.name() + " needs a whole number, not '" + value + "'");
        }
    }

    private boolean flag(String name) {
        return (Boolean) values.get(name);
    }

    private long number(String name) {
        return (Long) values.get(name);
    }

    public boolean optimizerEnabled() {
        return flag("sluice.optimizer.enabled");
    }

    public int maxOptimizerPasses() {
        return (int) Math.min(Integer.MAX_VALUE, number("sluice.optimizer.max-passes"));
    }

    public boolean skipFailedRules() {
        return flag("sluice.optimizer.skip-failed-rules");
    }

    public int shufflePartitions() {
        return (int) number("sluice.shuffle.partitions");
    }

    public long broadcastThreshold() {
        return number("sluice.join.broadcast-threshold");
    }

    public long sortMergeThreshold() {
        return number("sluice.join.sort-merge-threshold");
    }

    public long runtimeFilterThreshold() {
        return number("sluice.join.runtime-filter-threshold");
    }

    public boolean joinReorder() {
        return flag("sluice.optimizer.join-reorder");
    }

    public int joinReorderDpLimit() {
        return (int) number("sluice.optimizer.join-reorder.dp-limit");
    }

    public boolean rangePartitionedSort() {
        return flag("sluice.sort.range-partitioned");
    }

    public long rangeSortMinRows() {
        return number("sluice.sort.range-partitioned.min-rows");
    }

    public long resultMaxBytes() {
        return number("sluice.result.max-bytes");
    }

    public long resultBufferBytes() {
        return number("sluice.result.buffer-bytes");
    }

    public JoinSelection joinSelection() {
        return new JoinSelection(broadcastThreshold(), sortMergeThreshold(), runtimeFilterThreshold());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueryConfig other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "QueryConfig" + new java.util.TreeMap<>(values);
    }
}
