package io.sluice.physical;

import io.sluice.common.NodeMemo;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.datasource.FileScanExec;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.BroadcastHint;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.GroupingSetChoice;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.RangeRelation;
import io.sluice.logical.plan.Repartition;
import io.sluice.logical.plan.Sample;
import io.sluice.logical.plan.SharedSubplan;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SortWithinPartitions;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.logical.plan.Window;
import io.sluice.logical.stats.Selectivity;
import io.sluice.logical.stats.Statistics;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.basic.EmptyExec;
import io.sluice.operators.basic.GenerateExec;
import io.sluice.operators.basic.LimitExec;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.basic.RangeExec;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.operators.basic.RowSampleExec;
import io.sluice.operators.basic.UnionExec;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.filter.RuntimeFilter;
import io.sluice.operators.filter.RuntimeFilterExec;
import io.sluice.operators.filter.RuntimeFilterSourceExec;
import io.sluice.operators.join.HashJoinExec;
import io.sluice.operators.join.SortMergeJoinExec;
import io.sluice.operators.sort.OrderedGatherExec;
import io.sluice.operators.sort.SortExec;
import io.sluice.operators.window.WindowExec;
import io.sluice.physical.rules.EnsureRequirements;
import io.sluice.physical.rules.JoinSelection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Turns a logical plan into operators, without exchanges: each operator states what it needs of
 * its inputs and {@link EnsureRequirements} adds the repartitions and sorts.
 */
public final class PhysicalPlanner {
    private final JoinSelection joins;
    /** The largest expected share of probe rows passing a runtime filter for the planner to add one. */
    static final double RUNTIME_FILTER_MAX_SURVIVAL = 0.5;
    /** Rows a reused runtime filter must be expected to drop to be worth its side's wait: a batch. */
    static final long REUSED_FILTER_MIN_DROPPED_ROWS = 8_192;
    /** Operators a search for a runtime filter on a join's keys looks at, at most (plans may share nodes). */
    static final int FILTER_SEARCH_NODES = 256;

    /**
     * A PARTITIONED LEFT, LEFT_SEMI or LEFT_ANTI join builds its left (see {@link HashJoinExec})
     * when the left's estimated bytes are at most this share of the right's: clearly smaller, so
     * that a poor estimate does not turn a good build side into a worse one (building the left
     * also keeps a flag per left row and outputs the decided rows only at the end).
     */
    static final double LEFT_BUILD_MAX_SHARE = 0.5;

    private final boolean rangePartitionedSort;
    private final long rangeSortMinRows;
    private final int shufflePartitions;
    private final StatisticsEstimator statistics = new StatisticsEstimator();
    /** The operators of each logical node planned so far: a shared node (a WITH query read twice) is planned once. */
    private final NodeMemo<LogicalPlan, ExecutionPlan> planned = new NodeMemo<>();
    /** Each logical node without its filters, for the same reason. */
    private final NodeMemo<LogicalPlan, LogicalPlan> unfiltered = new NodeMemo<>();
    /** Runtime filters planned so far: each gets the next id. */
    private int runtimeFilters;
    /** The share of key values each planned runtime filter is expected to keep, by id. */
    private final Map<String, Double> runtimeFilterSurvival = new HashMap<>();

    public PhysicalPlanner() {
        this(JoinSelection.DEFAULT);
    }

    public PhysicalPlanner(JoinSelection joins) {
        this(joins, true);
    }

    /**
     * @param rangePartitionedSort {@code sluice.sort.range-partitioned}: a global ORDER BY (without
     *     a limit) is an ordered gather over range-partitioned, locally sorted input; false sorts
     *     all rows in one partition after a gather
     */
    public PhysicalPlanner(JoinSelection joins, boolean rangePartitionedSort) {
        this(joins, rangePartitionedSort, 0);
    }

    /**
     * @param rangeSortMinRows {@code sluice.sort.range-partitioned.min-rows}: a global ORDER BY whose
     *     input is estimated at fewer rows sorts in one partition even when range-partitioned sorts
     *     are on (sampling split points runs the input a second time, and an extra stage costs more
     *     than sorting a few rows in one task saves); the estimate is the statistics estimator's
     */
    public PhysicalPlanner(JoinSelection joins, boolean rangePartitionedSort, long rangeSortMinRows) {
        this(joins, rangePartitionedSort, rangeSortMinRows, 1);
    }

    /**
     * @param shufflePartitions the session's shuffle partitions: how many a {@link Repartition} that
     *     names no count makes
     */
    public PhysicalPlanner(JoinSelection joins, boolean rangePartitionedSort, long rangeSortMinRows,
            int shufflePartitions) {
        if (rangeSortMinRows < 0 || shufflePartitions < 1) {
            throw new IllegalArgumentException("negative rangeSortMinRows " + rangeSortMinRows);
        }
        this.joins = JoinSelection.of(joins);
        this.rangePartitionedSort = rangePartitionedSort;
        this.rangeSortMinRows = rangeSortMinRows;
        this.shufflePartitions = shufflePartitions;
    }

    /**
     * Join selection, from the inputs' estimated bytes ({@link StatisticsEstimator}, after their
     * filters): broadcast a small input that the join type lets us
     * build on its own (the right for inner, left, semi and anti joins; the left for inner and
     * right joins); NOT IN always broadcasts its subquery side, whose emptiness and NULLs are facts
     * about all of it; when both inputs are large, sort-merge if even the smaller one is too big
     * to hash, else a partitioned hash join that builds the smaller input where the type allows
     * (inner and full joins swap their inputs, and a projection restores the column order).
     */
    private ExecutionPlan planJoin(Join join) {
        long estimate = rows(join);
        boolean keyless = join.leftKeys().isEmpty();
        if (keyless) {
            // No equality to hash on (a cross join, or only a residual condition): one constant key
            // pair puts every row in one bucket, so every pair is tried against the filter.
            Literal zero = Literal.of(0L);
            join = new Join(join.left(), join.right(), join.type(), List.of(zero), List.of(zero), join.filter(),
                    join.mark());
        }
        join = withComparableKeys(join);
        ExecutionPlan left = plan(join.left());
        ExecutionPlan right = plan(join.right());
        if (!keyless) {
            JoinType joinType = join.type();
            // both sides from the inputs as planned, so a filter copied to one is not taken for the other's own
            ExecutionPlan plannedLeft = left;
            ExecutionPlan plannedRight = right;
            if (joinType.ignoresUnmatchedLeft()) {
                left = withOtherSidesFilter(plannedLeft, join.leftKeys(), plannedRight, join.rightKeys());
            }
            if (joinType.ignoresUnmatchedRight()) {
                right = withOtherSidesFilter(plannedRight, join.rightKeys(), plannedLeft, join.leftKeys());
            }
        }
        double leftBytes = statistics.of(join.left()).bytes().value();
        double rightBytes = statistics.of(join.right()).bytes().value();
        JoinType type = join.type();
        long broadcast = joins.broadcastThresholdBytes();
        boolean rightBuildable = type != JoinType.RIGHT && type != JoinType.FULL;
        boolean leftBuildable = type == JoinType.INNER || type == JoinType.RIGHT;
        if (type == JoinType.LEFT_ANTI_NULL_AWARE || rightBuildable && BroadcastHint.hinted(join.right())
                || (broadcast >= 0 && rightBuildable && rightBytes <= broadcast && (!leftBuildable || rightBytes <= leftBytes))) {
            if (type == JoinType.INNER || type == JoinType.LEFT_SEMI) {
                // the broadcast side's stage runs first anyway: its keys filter the probe side's scan
                Filtered f = withRuntimeFilter(left, join.left(), join.leftKeys(), right, join.right(), join.rightKeys());
                left = f.probe();
                right = f.build();
            }
            return hashJoin(left, right, join, HashJoinExec.Mode.COLLECT_RIGHT, estimate);
        }
        if (leftBuildable && BroadcastHint.hinted(join.left()) || broadcast >= 0 && leftBuildable && leftBytes <= broadcast) {
            if (type == JoinType.INNER) {
                Filtered f = withRuntimeFilter(right, join.right(), join.rightKeys(), left, join.left(), join.leftKeys());
                right = f.probe();
                left = f.build();
            }
            return hashJoin(left, right, join, HashJoinExec.Mode.COLLECT_LEFT, estimate);
        }
        if (!keyless && SortMergeJoinExec.supports(type)
                && Math.min(leftBytes, rightBytes) > joins.sortMergeThresholdBytes()) {
            return new SortMergeJoinExec(left, right, type, join.leftKeys(), join.rightKeys(), join.filter())
                    .withEstimatedRows(estimate);
        }
        boolean swap = (type == JoinType.INNER || type == JoinType.FULL) && rightBytes < leftBytes;
        if (HashJoinExec.canChooseLeftBuild(type, HashJoinExec.Mode.PARTITIONED)
                && leftBytes <= LEFT_BUILD_MAX_SHARE * rightBytes) {
            // Builds the small left, probes the right: right rows whose keys no left row has
            // change no left row's fate, so the left's keys may filter the right.
            Filtered f = withRuntimeFilter(right, join.right(), join.rightKeys(), left, join.left(), join.leftKeys());
            return new HashJoinExec(f.build(), f.probe(), type, join.leftKeys(), join.rightKeys(), join.filter(),
                    join.mark(), HashJoinExec.Mode.PARTITIONED).withLeftBuild().withEstimatedRows(estimate);
        }
        if (!swap) {
            if (type == JoinType.INNER) {
                // builds left, probes right
                Filtered f = withRuntimeFilter(right, join.right(), join.rightKeys(), left, join.left(), join.leftKeys());
                right = f.probe();
                left = f.build();
            } else if (type == JoinType.LEFT_SEMI) {
                Filtered f = withRuntimeFilter(left, join.left(), join.leftKeys(), right, join.right(), join.rightKeys());
                left = f.probe();
                right = f.build();
            } else if (type == JoinType.LEFT) {
                // Only matched right rows are output: a small left side may filter the large right
                // (built) one, e.g. the per-key aggregate of a decorrelated subquery (TPC-H Q20).
                Filtered f = withRuntimeFilter(right, join.right(), join.rightKeys(), left, join.left(), join.leftKeys());
                right = f.probe();
                left = f.build();
            }
            return hashJoin(left, right, join, HashJoinExec.Mode.PARTITIONED, estimate);
        }
        if (type == JoinType.INNER) {
            Filtered f = withRuntimeFilter(left, join.left(), join.leftKeys(), right, join.right(), join.rightKeys());
            left = f.probe();
            right = f.build();
        }
        ExecutionPlan swapped = new HashJoinExec(right, left, type, join.rightKeys(), join.leftKeys(), join.filter(),
                HashJoinExec.Mode.PARTITIONED).withEstimatedRows(estimate);
        List<Expr> original = new ArrayList<>();
        for (String name : join.schema().names()) {
            original.add(new Column(name));
        }
        return new ProjectionExec(swapped, original);
    }

    /** A join's two inputs after runtime filter planning: both unchanged, or both wrapped. */
    private record Filtered(ExecutionPlan probe, ExecutionPlan build) {
    }

    /**
     * The probe input under a {@link RuntimeFilterExec} and the build input under the
     * {@link RuntimeFilterSourceExec} that computes its filter, when the build side is small enough
     * for a compact filter ({@link JoinSelection#runtimeFilterMaxBuildBytes()}, and few enough keys
     * for {@link RuntimeFilter#MAX_BITS}), no larger than the probe side, and its filters leave at
     * most {@link #RUNTIME_FILTER_MAX_SURVIVAL} of some key column's distinct values: otherwise the
     * probe stage would wait for the build stage for little gain.
     *
     * <p>The share is the key's distinct count on the build side as planned over its count with the
     * build side's filters removed: a join on a foreign key (the usual case) then keeps about that
     * share of the probe rows, whatever the probe side's own statistics say. Comparing with the
     * probe side's distinct counts instead misleads where those are poor (a sparse key's count is
     * taken from its range).
     */
    private Filtered withRuntimeFilter(ExecutionPlan probe, LogicalPlan probeLogical, List<Expr> probeKeys,
            ExecutionPlan build, LogicalPlan buildLogical, List<Expr> buildKeys) {
        Filtered unchanged = new Filtered(probe, build);
        long threshold = joins.runtimeFilterMaxBuildBytes();
        if (threshold < 0 || probeKeys.isEmpty()) {
            return unchanged;
        }
        Statistics filtered = statistics.of(buildLogical);
        double buildRows = filtered.rowCount();
        if (filtered.bytes().value() > threshold || buildRows > statistics.of(probeLogical).rowCount()
                || buildRows * RuntimeFilter.BITS_PER_KEY > RuntimeFilter.MAX_BITS) {
            return unchanged;
        }
        Statistics unfiltered = statistics.of(withoutFilters(buildLogical));
        double survival = 1;
        for (Expr key : buildKeys) {
            double after = Selectivity.distinct(key, buildLogical.schema(), filtered, filtered.rowCount());
            double before = Selectivity.distinct(key, buildLogical.schema(), unfiltered, unfiltered.rowCount());
            survival = Math.min(survival, after / Math.max(1, before));
        }
        if (survival > RUNTIME_FILTER_MAX_SURVIVAL) {
            return unchanged;
        }
        String id = "rf-" + runtimeFilters++;
        double kept = survival;
        runtimeFilterSurvival.put(id, kept);
        return new Filtered(
                deepest(probe, probeKeys, kept, (input, keys) -> new RuntimeFilterExec(input, id, keys)
                        .withEstimatedRows(Math.round(input.estimatedRows() * kept))),
                new RuntimeFilterSourceExec(build, id, buildKeys, RuntimeFilter.bitsFor(buildRows))
                        .withEstimatedRows(build.estimatedRows()));
    }

    /**
     * {@code side} under the runtime filter that the other side's rows already pass on the join keys
     * ({@link #filterOnOutput}), for a join that drops this side's rows matching
     * nothing (the caller's check; never NOT IN or a mark join, where a NULL key matters): rows
     * whose keys fail it match nothing, so they go before they are aggregated or shuffled. TPC-H
     * Q17: the parts filter lineitem's per-part averages as they filter lineitem. A filter on one
     * of several join keys serves too (a row whose key fails it matches no row on that key alone):
     * in Q9 the parts filter partsupp, joined with lineitem on part and supplier (where the join
     * then builds a filter of its own on all its keys, the one-key filter adds a cheap test of the
     * rows that filter kept and no wait: its source stage runs before the new one's). No filter is
     * built for it: the side's stage waits for the existing one's small build stage, so only
     * when at least {@link #REUSED_FILTER_MIN_DROPPED_ROWS} rows are expected to go, and the keys'
     * types hash alike on both sides.
     */
    private ExecutionPlan withOtherSidesFilter(ExecutionPlan side, List<Expr> sideKeys, ExecutionPlan other,
            List<Expr> otherKeys) {
        ExecutionPlan filtered = withOtherSidesFilterOn(side, sideKeys, other, otherKeys);
        // one key's filter only where the side has none on all of its keys yet
        boolean oneKey = filtered == side && sideKeys.size() > 1
                && filterOnOutput(side, sideKeys, new int[] {FILTER_SEARCH_NODES}).isEmpty();
        for (int i = 0; oneKey && filtered == side && i < sideKeys.size(); i++) {
            filtered = withOtherSidesFilterOn(side, List.of(sideKeys.get(i)), other, List.of(otherKeys.get(i)));
        }
        return filtered;
    }

    /** {@link #withOtherSidesFilter} for a filter on exactly these keys; {@code side} itself when none applies. */
    private ExecutionPlan withOtherSidesFilterOn(ExecutionPlan side, List<Expr> sideKeys, ExecutionPlan other,
            List<Expr> otherKeys) {
        Optional<String> id = filterOnOutput(other, otherKeys, new int[] {FILTER_SEARCH_NODES});
        if (id.isEmpty() || filterOnOutput(side, sideKeys, new int[] {FILTER_SEARCH_NODES}).isPresent()) {
            return side;
        }
        for (int i = 0; i < sideKeys.size(); i++) {
            DataType sideType = sideKeys.get(i).type(side.schema());
            DataType otherType = otherKeys.get(i).type(other.schema());
            if (!sideType.equals(otherType) && !(sideType.isIntegral() && otherType.isIntegral())) {
                return side;
            }
        }
        double kept = runtimeFilterSurvival.getOrDefault(id.get(), 1.0);
        if (side.estimatedRows() >= 0 && side.estimatedRows() * (1 - kept) < REUSED_FILTER_MIN_DROPPED_ROWS) {
            return side;
        }
        return deepest(side, sideKeys, kept, (input, keys) -> new RuntimeFilterExec(input, id.get(), keys)
                .withEstimatedRows(Math.round(input.estimatedRows() * kept)));
    }

    /**
     * A runtime filter every output row's {@code keys} pass: one that {@code plan} or an input applies
     * to the keys as they are there ({@link ExecutionPlan#outputKeysOnInputs}). A plan may share
     * nodes (a DAG), so the search looks at {@code budget[0]} nodes at most.
     */
    private static Optional<String> filterOnOutput(ExecutionPlan plan, List<Expr> keys, int[] budget) {
        if (budget[0]-- <= 0) {
            return Optional.empty();
        }
        Optional<String> own = plan.runtimeFilterOn(keys);
        if (own.isPresent()) {
            return own;
        }
        List<Optional<List<Expr>>> below = plan.outputKeysOnInputs(keys);
        for (int i = 0; i < below.size(); i++) {
            if (below.get(i).isPresent()) {
                Optional<String> found = filterOnOutput(plan.children().get(i), below.get(i).get(), budget);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * {@code plan} with a filter on {@code keys} that keeps {@code kept} of their values ({@code
     * filter} makes it over an input and the keys as that input sees them) put as deep as the operators say it may go
     * ({@link ExecutionPlan#filterKeysOnInput}): below projections, filters, aggregates and inner joins on the
     * keys, so rows are dropped before they are aggregated and shuffled; but above a last filter
     * over the input, which drops rows more cheaply.
     */
    private static ExecutionPlan deepest(ExecutionPlan plan, List<Expr> keys, double kept,
            BiFunction<ExecutionPlan, List<Expr>, ExecutionPlan> filter) {
        return deepest(plan, keys, kept, filter, new int[] {FILTER_SEARCH_NODES});
    }

    /**
     * {@link #deepest}, below at most {@code budget[0]} operators. An inner or semi join takes the
     * filter into each input its keys come from ({@link ExecutionPlan#outputKeysOnInputs}): a row
     * of that input whose keys fail joins only into output rows whose keys fail.
     */
    private static ExecutionPlan deepest(ExecutionPlan plan, List<Expr> keys, double kept,
            BiFunction<ExecutionPlan, List<Expr>, ExecutionPlan> filter, int[] budget) {
        if (budget[0]-- <= 0) {
            return filter.apply(plan, keys);
        }
        List<Optional<List<Expr>>> below = keysBelow(plan, keys);
        if (below.stream().anyMatch(Optional::isPresent)) {
            boolean inputTakesIt = plan.children().size() > 1;
            for (int i = 0; i < below.size() && !inputTakesIt; i++) {
                inputTakesIt = below.get(i).isPresent()
                        && keysBelow(plan.children().get(i), below.get(i).get()).stream().anyMatch(Optional::isPresent);
            }
            // Above a last filter (rows dropped, columns kept) rather than below it: fewer rows to test.
            boolean filters = plan.children().size() == 1 && plan.cardinalityEffect() == CardinalityEffect.LOWER_EQUAL
                    && plan.schema().equals(plan.children().get(0).schema());
            if (inputTakesIt || !filters) {
                List<ExecutionPlan> inputs = new ArrayList<>(plan.children());
                for (int i = 0; i < below.size(); i++) {
                    if (below.get(i).isPresent()) {
                        inputs.set(i, deepest(inputs.get(i), below.get(i).get(), kept, filter, budget));
                    }
                }
                // operators above the filter see the kept share of the key values (and so of groups)
                ExecutionPlan above = plan.withNewChildren(inputs);
                return plan.estimatedRows() < 0 ? above
                        : above.withEstimatedRows(Math.round(plan.estimatedRows() * kept));
            }
        }
        return filter.apply(plan, keys);
    }

    /**
     * Where a filter on {@code plan}'s output {@code keys} may go: for each input, the keys over it, or
     * empty. Into a join's input only where the join requires no distribution of it (a broadcast
     * join's streamed side), so the filter stays in the join's stage: an input to be exchanged is
     * another stage, which would then wait for the filter's build stage as it did not before.
     */
    private static List<Optional<List<Expr>>> keysBelow(ExecutionPlan plan, List<Expr> keys) {
        if (plan.children().size() == 1) {
            return List.of(plan.filterKeysOnInput(keys));
        }
        List<Optional<List<Expr>>> below = new ArrayList<>(plan.outputKeysOnInputs(keys));
        List<Distribution> required = plan.requiredInputDistribution();
        for (int i = 0; i < below.size(); i++) {
            if (i >= required.size() || !Distribution.UNSPECIFIED.equals(required.get(i))) {
                below.set(i, Optional.empty());
            }
        }
        return below;
    }

    /** The plan with every filter node replaced by its input (the schema stays the same). */
    private LogicalPlan withoutFilters(LogicalPlan plan) {
        return unfiltered.get(plan, node -> {
            if (node instanceof Filter filter) {
                return withoutFilters(filter.input());
            }
            List<LogicalPlan> children = node.children();
            if (children.isEmpty()) {
                return node;
            }
            List<LogicalPlan> stripped = new ArrayList<>(children.size());
            for (LogicalPlan child : children) {
                stripped.add(withoutFilters(child));
            }
            return node.withNewChildren(stripped);
        });
    }

    /**
     * The join with each key pair of different types (decimals of different scales, an integer and
     * a decimal, a number and a float) cast to their common type, so that equal values hash,
     * sort and range-partition alike on both sides: {@code 1.5} as {@code decimal(10,2)} is the
     * long 150, as {@code decimal(14,4)} the long 15000. Integers of different widths need no
     * cast (they are compared as longs).
     */
    private static Join withComparableKeys(Join join) {
        List<Expr> leftKeys = new ArrayList<>(join.leftKeys());
        List<Expr> rightKeys = new ArrayList<>(join.rightKeys());
        boolean changed = false;
        for (int i = 0; i < leftKeys.size(); i++) {
            DataType l = leftKeys.get(i).type(join.left().schema());
            DataType r = rightKeys.get(i).type(join.right().schema());
            if (l.equals(r) || (l.isIntegral() && r.isIntegral()) || l.kind() == DataType.Kind.NULL
                    || r.kind() == DataType.Kind.NULL) {
                continue;
            }
            DataType common = TypeRules.commonType(l, r);
            if (common == null) {
                continue; // not comparable: the join operator names the pair
            }
            if (!common.equals(l)) {
                leftKeys.set(i, new Cast(leftKeys.get(i), common));
                changed = true;
            }
            if (!common.equals(r)) {
                rightKeys.set(i, new Cast(rightKeys.get(i), common));
                changed = true;
            }
        }
        return changed ? new Join(join.left(), join.right(), join.type(), leftKeys, rightKeys, join.filter()) : join;
    }

    private static ExecutionPlan hashJoin(ExecutionPlan left, ExecutionPlan right, Join join, HashJoinExec.Mode mode,
            long estimate) {
        return new HashJoinExec(left, right, join.type(), join.leftKeys(), join.rightKeys(), join.filter(), join.mark(),
                mode).withEstimatedRows(estimate);
    }

    /** The input with its columns renamed, by position, to {@code target}'s names (no-op when equal). */
    static ExecutionPlan rename(ExecutionPlan input, Schema target) {
        Schema schema = input.schema();
        if (schema.names().equals(target.names())) {
            return input;
        }
        List<Expr> exprs = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            String from = schema.field(i).name();
            String to = target.field(i).name();
            exprs.add(from.equals(to) ? new Column(from) : new Alias(new Column(from), to));
        }
        return new ProjectionExec(input, exprs).withEstimatedRows(input.estimatedRows());
    }

    /**
     * The operators for {@code plan}, each carrying its estimated rows ({@link ExecutionPlan#estimatedRows}):
     * the estimate of the logical node it implements, from the same statistics that chose the joins.
     */
    public ExecutionPlan plan(LogicalPlan plan) {
        return planned.get(plan, node -> planNode(node).withEstimatedRows(rows(node)));
    }

    /** The estimated output rows of a logical node, rounded. */
    private long rows(LogicalPlan plan) {
        return Math.round(Math.min(Long.MAX_VALUE / 2.0, statistics.of(plan).rowCount()));
    }

    private ExecutionPlan planNode(LogicalPlan plan) {
        if (plan instanceof TableScan scan) {
            return FileScanExec.create(scan.source(), scan.schema(), List.of());
        }
        if (plan instanceof Filter filter && filter.input() instanceof TableScan scan) {
            // the scan sees the filter at once, so that partition pruning skips files before their footers are read
            ExecutionPlan input = FileScanExec.create(scan.source(), scan.schema(),
                    Exprs.conjuncts(filter.predicate())).withEstimatedRows(rows(scan));
            return new FilterExec(input, filter.predicate());
        }
        if (plan instanceof Filter filter) {
            return new FilterExec(plan(filter.input()), filter.predicate());
        }
        if (plan instanceof Projection projection) {
            return new ProjectionExec(plan(projection.input()), projection.exprs());
        }
        if (plan instanceof Aggregate aggregate) {
            // the partial phase outputs at least the groups (once per partition holding each): the final's estimate is its floor
            HashAggregateExec partial = HashAggregateExec.partial(plan(aggregate.input()), aggregate.groupBy(),
                    aggregate.aggregates()).withEstimatedRows(rows(aggregate));
            return HashAggregateExec.finalPhase(partial, partial);
        }
        if (plan instanceof GroupingSetChoice choice) {
            return plan(choice.onePass()); // not chosen by the optimizer (its rules off): the plan that is usually right
        }
        if (plan instanceof Window window) {
            return new WindowExec(plan(window.input()), window.windowExprs());
        }
        if (plan instanceof Generate generate) {
            return new GenerateExec(plan(generate.input()), generate.function(), generate.generator(), generate.outer(), generate.schema())
                    .withEstimatedRows(rows(generate));
        }
        if (plan instanceof Sort sort) {
            long inputRows = rows(sort.input());
            if (rangePartitionedSort && sort.fetch() == Sort.ALL && inputRows >= rangeSortMinRows) {
                // EnsureRequirements puts a range repartition on fresh split points and a per-partition sort below it
                return new OrderedGatherExec(plan(sort.input()), sort.keys());
            }
            ExecutionPlan exec = new SortExec(plan(sort.input()), sort.keys(), SortExec.NO_FETCH, false)
                    .withEstimatedRows(inputRows);
            // A top-k is a sort under a limit here: LimitPushdown makes it a TopK and negotiates per-partition
            // top-ks below the exchange that EnsureRequirements puts under the sort.
            return sort.fetch() == Sort.ALL ? exec : new LimitExec(exec, 0, sort.fetch(), true);
        }
        if (plan instanceof BroadcastHint hint) {
            return plan(hint.input()); // read by the join above (planJoin)
        }
        if (plan instanceof SharedSubplan shared) {
            return plan(shared.input()); // equal in every consumer: the stage cutter runs its stages once
        }
        if (plan instanceof Repartition r) {
            // where the user asked: EnsureRequirements keeps it, as it satisfies what is above or is cut anyway
            int n = r.partitionCount() > 0 ? r.partitionCount() : shufflePartitions;
            Partitioning target = r.keys().isEmpty() ? new Partitioning.RoundRobin(n) : new Partitioning.Hash(r.keys(), n);
            return new RepartitionExec(plan(r.input()), target).withEstimatedRows(rows(r));
        }
        if (plan instanceof SortWithinPartitions sort) {
            return new SortExec(plan(sort.input()), sort.keys(), SortExec.NO_FETCH, true).withEstimatedRows(rows(sort));
        }
        if (plan instanceof Limit limit) {
            // A global limit; LimitPushdown turns a sort below into a top-k and puts local limits below exchanges.
            return new LimitExec(plan(limit.input()), limit.offset(), limit.fetch(), true);
        }
        if (plan instanceof Join join) {
            return planJoin(join);
        }
        if (plan instanceof Sample sample) {
            return new RowSampleExec(plan(sample.input()), sample.fraction(), sample.seed(), sample.withReplacement());
        }
        if (plan instanceof SubqueryAlias alias) {
            return rename(plan(alias.input()), alias.schema());
        }
        if (plan instanceof EmptyRelation empty) {
            return new EmptyExec(empty.schema());
        }
        if (plan instanceof RangeRelation range) {
            return new RangeExec(range.start(), range.step(), range.count(),
                    range.partitions() > 0 ? range.partitions() : shufflePartitions, range.schema());
        }
        if (plan instanceof Union union) {
            List<ExecutionPlan> inputs = new ArrayList<>();
            for (LogicalPlan input : union.inputs()) {
                inputs.add(rename(plan(input), union.schema()));
            }
            return new UnionExec(inputs);
        }
        throw new IllegalArgumentException("no physical plan for " + plan.describe());
    }
}
