package io.sluice.operators;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A physical operator. Besides running, it answers declarative questions that the physical
 * optimizer combines; no rule asks for an operator's class. Every default is the conservative
 * answer, so a new operator that overrides nothing is planned correctly, if not well.
 *
 * <p>Instances are immutable; {@link #withNewChildren} returns a copy.
 */
public interface ExecutionPlan {
    Schema schema();

    List<ExecutionPlan> children();

    ExecutionPlan withNewChildren(List<ExecutionPlan> children);

    /** Facts fixed at construction: output partitioning, ordering, boundedness. */
    PlanProperties properties();

    /** Runs one partition. The stream's batches belong to the caller. */
    BatchStream execute(int partition, TaskContext context);

    /** One line: the operator's name and arguments, without children or properties. */
    String describe();

    /** {@link #estimatedRows()} of an operator nobody estimated. */
    long UNKNOWN_ROWS = -1;

    /**
     * The rows this operator is expected to output over all its partitions, as the physical planner
     * took them from the logical plan's statistics ({@code LogicalPlan.statistics}), or
     * {@link #UNKNOWN_ROWS}. Fixed for an instance and kept by {@link #withNewChildren}, so that the
     * number survives the physical optimizer and the stage cutter; EXPLAIN prints it, and EXPLAIN
     * ANALYZE next to the rows counted. It informs, it decides nothing: physical rules choose from
     * the other answers.
     */
    default long estimatedRows() {
        return UNKNOWN_ROWS;
    }

    /** A copy that carries {@code rows} as its estimate; an operator that cannot carry one returns itself. */
    default ExecutionPlan withEstimatedRows(long rows) {
        return this;
    }

    /** What distribution each child must have. */
    default List<Distribution> requiredInputDistribution() {
        return Collections.nCopies(children().size(), Distribution.UNSPECIFIED);
    }

    /**
     * Whether the children, beyond each meeting its own distribution, must be partitioned alike:
     * partition i of every child covering the same keys (same count and hash scheme, or the same
     * split points).
     */
    default InputDistributionRequirements inputDistributionRequirements() {
        return InputDistributionRequirements.INDEPENDENT;
    }

    /** The order each child's partitions must have (empty: none). */
    default List<List<SortKey>> requiredInputOrdering() {
        return Collections.nCopies(children().size(), List.of());
    }

    /** Whether each child's order survives this operator. */
    default List<Boolean> maintainsInputOrder() {
        return Collections.nCopies(children().size(), false);
    }

    /** Whether more input partitions would let this operator do more in parallel. */
    default List<Boolean> benefitsFromInputPartitioning() {
        return Collections.nCopies(children().size(), false);
    }

    default boolean supportsLimitPushdown() {
        return false;
    }

    /**
     * A copy that produces at most {@code fetch} rows per partition, if this operator can absorb a
     * LIMIT (a sort becomes a top-k; an exchange puts a local limit below itself).
     */
    default Optional<ExecutionPlan> withFetch(long fetch) {
        return Optional.empty();
    }

    /** The most rows this operator outputs, if it limits them. */
    default OptionalLong fetch() {
        return OptionalLong.empty();
    }

    /** Rows skipped before {@link #fetch()} counts (an OFFSET). */
    default long skip() {
        return 0;
    }

    default CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.UNKNOWN;
    }

    /**
     * This operator with a projection of its output moved below it, if it can take one: the
     * returned plan outputs exactly what {@code projection} over this operator would.
     */
    default Optional<ExecutionPlan> trySwappingWithProjection(List<Expr> projection) {
        return Optional.empty();
    }

    /**
     * The expressions of a projection this operator is and offers to move below its child (a
     * projection answers its expressions); empty for every other operator.
     */
    default List<Expr> projectionForPushdown() {
        return List.of();
    }

    /**
     * The filters this operator offers to push into its child (a filter offers its conjuncts);
     * empty for operators that hold no filter.
     */
    default List<Expr> gatherFiltersForPushdown() {
        return List.of();
    }

    /**
     * This operator after its child took some filters: {@code remaining} are those the child did
     * not fully handle. A filter with nothing remaining returns its (new) child.
     */
    default ExecutionPlan handleChildPushdownResult(ExecutionPlan newChild, List<Expr> remaining) {
        return withNewChildren(List.of(newChild));
    }

    /**
     * Offers filters from a parent. The answer says which the returned plan fully enforces; the rest
     * (which may still have been used, e.g. to prune Parquet row groups) must stay above.
     */
    default FilterPushdown pushFilters(List<Expr> filters) {
        return FilterPushdown.none(this, filters);
    }

    /**
     * Whether a filter on {@code keys} (expressions over this operator's output) may go below it:
     * if dropping the input rows whose keys, as returned, fail a test drops exactly the output
     * rows whose {@code keys} fail it and changes no other output row, the keys over the only
     * input; else empty (the default). A filter, a projection passing the key columns through and
     * an aggregate grouping by them answer; a limit or a join does not. The planner uses it to put
     * a runtime filter as deep as it can go, e.g. below an aggregate into the scan's stage.
     */
    default Optional<List<Expr>> filterKeysOnInput(List<Expr> keys) {
        return Optional.empty();
    }

    /** The runtime filter this operator itself tests {@code keys} (over its output) against, by id; else empty. */
    default Optional<String> runtimeFilterOn(List<Expr> keys) {
        return Optional.empty();
    }

    /**
     * For each input, {@code keys} (over this operator's output) as expressions over that input
     * whose values every output row's keys take from some row of that input; empty for an input
     * where that does not hold. The planner follows these down to find a runtime filter that every
     * output row's keys pass ({@link #runtimeFilterOn}). By default, for the only input, what
     * {@link #filterKeysOnInput} says; an inner or semi join answers for both inputs through its
     * key equality; other multi-input operators answer nothing.
     */
    default List<Optional<List<Expr>>> outputKeysOnInputs(List<Expr> keys) {
        return children().size() == 1 ? List.of(filterKeysOnInput(keys)) : List.of();
    }

    /**
     * This plan told {@code predicates} learned at run time (a bound runtime filter's key range),
     * which it may use only to skip reading input they prove no row of passes; rows are still
     * filtered above. Unlike {@link #pushFilters}, the answer keeps the output partitioning and the
     * partition count: the stage's tasks are counted before run-time facts arrive. Operators that
     * pass columns through hand the predicates on to their input; the default ignores them.
     */
    default ExecutionPlan withRuntimePruning(List<Expr> predicates) {
        return this;
    }

    /**
     * This plan told a test of rows learned at run time (a bound runtime filter), which a scan below
     * may apply while reading to skip decoding the rows it rejects ({@link ScanRowFilter}); rows are
     * still filtered above. Keeps the output partitioning; operators that pass columns through hand
     * it on to their input; the default ignores it.
     */
    default ExecutionPlan withScanRowFilter(ScanRowFilter filter) {
        return this;
    }

    /**
     * A plan with a sort by {@code sort} (keeping only {@code fetch} rows per partition, or all when
     * negative) pushed into or below this operator, if it can take it.
     */
    default Optional<ExecutionPlan> tryPushdownSort(List<SortKey> sort, long fetch) {
        return Optional.empty();
    }

    /** A copy that keeps its input order, if asked and able. */
    default ExecutionPlan withPreserveOrder(boolean preserveOrder) {
        return this;
    }

    /**
     * The plan without this operator, when its input's properties already make it a no-op (a sort
     * of sorted input, a repartition into the partitioning its input has).
     */
    default Optional<ExecutionPlan> removeIfRedundant() {
        return Optional.empty();
    }

    /**
     * The hosts holding the input of {@code partition} (a file scan's block locations, most data
     * first), for the scheduler to prefer a worker there; empty when no host is better than another.
     * The default answers for an operator whose partition i reads partition i of a child with as many
     * partitions (a filter, a projection, a partial aggregate, a broadcast join's probe side): that
     * child's hosts. A hint only: a wrong answer costs locality, never a result.
     */
    default List<String> preferredHosts(int partition) {
        int count = properties().partitioning().partitionCount();
        for (ExecutionPlan child : children()) {
            if (child.properties().partitioning().partitionCount() == count) {
                return child.preferredHosts(partition);
            }
        }
        return List.of();
    }

    /** The tree with each operator's output partitioning and ordering, as EXPLAIN prints it. */
    default String explain() {
        StringBuilder out = new StringBuilder();
        PhysicalPlanText.append(this, 0, out);
        return out.toString();
    }
}
