package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;

/**
 * A relation known to have no rows, with the schema of what it replaced. The optimizer puts it where
 * a predicate is always false or a limit is 0, so that nothing below is read.
 */
public record EmptyRelation(Schema schema) implements LogicalPlan {
    public EmptyRelation {
        requireNonNull(schema, "schema is null");
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of();
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        if (!children.isEmpty()) {
            throw new IllegalArgumentException("an empty relation has no children");
        }
        return this;
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "EmptyRelation: " + String.join(", ", schema.names());
    }

    /** No rows, exactly. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        List<ColumnStatistics> columns = new ArrayList<>();
        for (Field f : schema.fields()) {
            columns.add(new ColumnStatistics(Estimate.exact(0), Estimate.exact(0), null, null, Estimate.Precision.ABSENT,
                    ColumnStatistics.nominalWidth(f.type())));
        }
        return Statistics.of(Estimate.exact(0), columns);
    }
}
