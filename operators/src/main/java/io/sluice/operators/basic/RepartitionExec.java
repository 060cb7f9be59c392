package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.FilterPushdown;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.sort.SortExec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Moves rows into a new partitioning. It marks a stage boundary: the stage cutter replaces it with
 * a shuffle write below and a shuffle read above, so it never runs itself.
 */
public record RepartitionExec(ExecutionPlan input, Partitioning partitioning, long estimatedRows) implements ExecutionPlan {
    public RepartitionExec {
        requireNonNull(input, "input is null");
        requireNonNull(partitioning, "partitioning is null");
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public RepartitionExec(ExecutionPlan input, Partitioning partitioning) {
        this(input, partitioning, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new RepartitionExec(input, partitioning, rows);
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RepartitionExec(children.get(0), partitioning).withEstimatedRows(estimatedRows);
    }

    /** Moving rows keeps facts about each row (equivalences), but not their order. */
    @Override
    public PlanProperties properties() {
        PlanProperties in = input.properties();
        return new PlanProperties(partitioning, List.of(), in.bounded(), in.equivalences());
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.EQUAL;
    }

    /** A limit above an exchange becomes a local limit below it (the global one stays above). */
    @Override
    public boolean supportsLimitPushdown() {
        return true;
    }

    @Override
    public Optional<ExecutionPlan> withFetch(long fetch) {
        OptionalLong inputFetch = input.fetch();
        if (inputFetch.isPresent() && inputFetch.getAsLong() <= fetch) {
            return Optional.of(this);
        }
        return Optional.of(new RepartitionExec(new LimitExec(input, 0, fetch, false), partitioning));
    }

    /** An exchange cannot keep order, but it can carry each input partition's top rows. */
    @Override
    public Optional<ExecutionPlan> tryPushdownSort(List<SortKey> sort, long fetch) {
        if (fetch < 0) {
            return Optional.empty();
        }
        OptionalLong inputFetch = input.fetch();
        if (input.properties().orderingSatisfies(sort) && inputFetch.isPresent() && inputFetch.getAsLong() <= fetch) {
            return Optional.of(this);
        }
        ExecutionPlan sorted = input.tryPushdownSort(sort, fetch).orElseGet(() -> new SortExec(input, sort, fetch, true));
        return Optional.of(new RepartitionExec(sorted, partitioning));
    }

    /** Filtering commutes with moving rows; filtering first moves fewer. */
    @Override
    public FilterPushdown pushFilters(List<Expr> filters) {
        return new FilterPushdown(new RepartitionExec(new FilterExec(input, Exprs.and(filters)), partitioning), List.of());
    }

    /** A projection that only picks columns (keeping the hash keys) goes below: fewer bytes move. */
    @Override
    public Optional<ExecutionPlan> trySwappingWithProjection(List<Expr> projection) {
        List<String> picked = new ArrayList<>();
        for (Expr e : projection) {
            if (!(e instanceof Column c)) {
                return Optional.empty();
            }
            picked.add(c.column());
        }
        List<Expr> keys = List.of();
        if (partitioning instanceof Partitioning.Hash hash) {
            keys = hash.keys();
        } else if (partitioning instanceof Partitioning.Range range) {
            keys = range.keys().stream().map(SortKey::expr).toList();
        }
        for (Expr key : keys) {
            if (!(key instanceof Column c) || !picked.contains(c.column())) {
                return Optional.empty();
            }
        }
        return Optional.of(new RepartitionExec(new ProjectionExec(input, projection), partitioning));
    }

    /** Redundant when the input is already partitioned exactly this way. */
    @Override
    public Optional<ExecutionPlan> removeIfRedundant() {
        return input.properties().partitioning().equals(partitioning) ? Optional.of(input) : Optional.empty();
    }

    @Override
    public String describe() {
        return "RepartitionExec: " + partitioning;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        throw new IllegalStateException("RepartitionExec runs only as a stage boundary; the stage cutter replaces it");
    }
}
