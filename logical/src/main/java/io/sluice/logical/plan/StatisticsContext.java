package io.sluice.logical.plan;

import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.Statistics;

/** What a node needs to estimate its statistics: its inputs' statistics and the tables'. */
public interface StatisticsContext {
    /** The statistics of {@code plan} (a child of the asking node). */
    Statistics of(LogicalPlan plan);

    /** The statistics of a whole table, over its full schema. */
    Statistics table(TableSource source);
}
