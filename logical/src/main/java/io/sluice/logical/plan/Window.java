package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Computes window functions that share one PARTITION BY and ORDER BY (frames may differ): each
 * entry of {@code windowExprs} is a {@link WindowCall}, maybe aliased. Output: every input column,
 * then one column per window expression. Calls over different windows are stacked nodes.
 */
public record Window(LogicalPlan input, List<Expr> windowExprs, Schema schema) implements LogicalPlan {
    public Window {
        requireNonNull(input, "input is null");
        requireNonNull(schema, "schema is null");
        windowExprs = List.copyOf(windowExprs);
        if (windowExprs.isEmpty()) {
            throw new IllegalArgumentException("a window node needs a window function");
        }
        WindowCall first = call(windowExprs.get(0));
        for (Expr e : windowExprs) {
            if (!call(e).sameWindow(first)) {
                throw new IllegalArgumentException("window calls over different windows in one node: " + first + ", " + e);
            }
            for (Expr child : call(e).children()) {
                if (Exprs.containsAggregate(child)) {
                    throw new SluiceException("aggregate " + child + " inside a window function outside an aggregation");
                }
            }
        }
        schemaOf(input.schema(), windowExprs);
    }

    /** Derives the schema once, here. */
    public Window(LogicalPlan input, List<Expr> windowExprs) {
        this(input, windowExprs, schemaOf(requireNonNull(input, "input is null").schema(), windowExprs));
    }

    private static WindowCall call(Expr e) {
        if (Exprs.unalias(e) instanceof WindowCall call) {
            return call;
        }
        throw new IllegalArgumentException("not a window call: " + e);
    }

    static Schema schemaOf(Schema input, List<Expr> windowExprs) {
        List<Field> fields = new ArrayList<>(input.fields());
        for (Expr e : windowExprs) {
            fields.add(new Field(e.name(), e.type(input)));
        }
        return new Schema(fields);
    }

    /** The window the calls share. */
    public WindowCall window() {
        return call(windowExprs.get(0));
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Window(children.get(0), windowExprs);
    }

    @Override
    public List<Expr> expressions() {
        return windowExprs;
    }

    @Override
    public String describe() {
        return "Window: " + windowExprs.stream().map(Expr::toString).collect(Collectors.joining(", "));
    }

    /** The input's rows and columns, plus unknown statistics for each window column. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        Statistics in = context.of(input);
        List<ColumnStatistics> columns = new ArrayList<>(in.columns());
        for (Expr e : windowExprs) {
            columns.add(ColumnStatistics.unknown(e.type(input.schema())));
        }
        return Statistics.of(in.rows(), columns);
    }
}
