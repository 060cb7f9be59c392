package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.util.List;

/** Skips {@code offset} rows, then keeps at most {@code fetch}. */
public record Limit(LogicalPlan input, long offset, long fetch) implements LogicalPlan {
    public Limit {
        requireNonNull(input, "input is null");
        if (fetch < 0) {
            throw new SluiceException("LIMIT must not be negative: " + fetch);
        }
        if (offset < 0) {
            throw new SluiceException("OFFSET must not be negative: " + offset);
        }
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Limit(children.get(0), offset, fetch);
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "Limit: fetch=" + fetch + (offset > 0 ? " offset=" + offset : "");
    }

    /** The input's statistics, at most {@code fetch} rows after skipping {@code offset}. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        Statistics in = context.of(input);
        double rows = Math.min(Math.max(0, in.rowCount() - offset), fetch);
        if (rows == in.rowCount()) {
            return in;
        }
        return in.withRows(new Estimate(rows, in.rows().precision()));
    }
}
