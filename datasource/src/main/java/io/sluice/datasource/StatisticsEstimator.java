package io.sluice.datasource;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.StatisticsContext;
import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.Statistics;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Estimates plan statistics by asking each node ({@link LogicalPlan#statistics}), memoized per
 * node instance, with table statistics from the files' metadata ({@link FileFormats#statistics}).
 * Not thread-safe: one estimator per optimization.
 */
public final class StatisticsEstimator implements StatisticsContext {
    private final Map<LogicalPlan, Statistics> nodes = new IdentityHashMap<>();
    private final Map<TableSource, Statistics> tables = new HashMap<>();
    private final Function<TableSource, Statistics> tableStatistics;

    public StatisticsEstimator() {
        this(FileFormats::statistics);
    }

    /** An estimator that takes table statistics from {@code tableStatistics} (tests give fixed ones). */
    public StatisticsEstimator(Function<TableSource, Statistics> tableStatistics) {
        this.tableStatistics = requireNonNull(tableStatistics, "tableStatistics is null");
    }

    @Override
    public Statistics of(LogicalPlan plan) {
        requireNonNull(plan, "plan is null");
        Statistics known = nodes.get(plan);
        if (known == null) {
            known = requireNonNull(plan.statistics(this), () -> "no statistics from " + plan.describe());
            nodes.put(plan, known);
        }
        return known;
    }

    @Override
    public Statistics table(TableSource source) {
        return tables.computeIfAbsent(source, tableStatistics);
    }
}
