package io.sluice.optimizer.physical;

import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.EmptyRelation;
import io.sluice.plan.logical.Filter;
import io.sluice.plan.logical.Join;
import io.sluice.plan.logical.Limit;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.logical.TableScan;
import io.sluice.plan.source.FileFormats;
import java.util.HashMap;
import java.util.Map;

/**
 * Rough output sizes in bytes, for choosing join strategies: a scan is its files' size scaled by
 * the share of columns read; a filter keeps half; a projection scales by its column count; a limit
 * caps at its rows times a nominal row width; other nodes pass their inputs' sizes on. Estimates
 * err large, so a join is broadcast only when its input is surely small.
 */
final class SizeEstimator {
    private static final long BYTES_PER_VALUE = 8;

    private final Map<LogicalPlan, Long> cache = new HashMap<>();

    long bytes(LogicalPlan plan) {
        Long known = cache.get(plan);
        if (known != null) {
            return known;
        }
        long estimate = estimate(plan);
        cache.put(plan, estimate);
        return estimate;
    }

    private long estimate(LogicalPlan plan) {
        if (plan instanceof TableScan scan) {
            long total = FileFormats.totalBytes(scan.source().location());
            return Math.max(1, total * scan.schema().size() / Math.max(1, scan.source().schema().size()));
        }
        if (plan instanceof EmptyRelation) {
            return 0;
        }
        if (plan instanceof Filter filter) {
            return bytes(filter.input()) / 2;
        }
        if (plan instanceof Projection projection) {
            long in = bytes(projection.input());
            return in * projection.schema().size() / Math.max(1, projection.input().schema().size());
        }
        if (plan instanceof Limit limit) {
            return Math.min(bytes(limit.input()), limit.fetch() * plan.schema().size() * BYTES_PER_VALUE);
        }
        if (plan instanceof Aggregate aggregate) {
            return aggregate.groupBy().isEmpty() ? plan.schema().size() * BYTES_PER_VALUE : bytes(aggregate.input());
        }
        if (plan instanceof Join join && !join.type().outputsRight()) {
            return bytes(join.left());
        }
        long sum = 0;
        for (LogicalPlan child : plan.children()) {
            sum = saturatingAdd(sum, bytes(child));
        }
        return sum;
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }
}
