package io.sluice.plan.physical;

import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.types.Schema;
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

    /** What distribution each child must have. */
    default List<Distribution> requiredInputDistribution() {
        return Collections.nCopies(children().size(), Distribution.UNSPECIFIED);
    }

    /** Whether the children must also be partitioned alike (partition i of each covering the same keys). */
    default boolean requiresCoPartitionedInputs() {
        return false;
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

    /** A copy that stops after {@code fetch} rows, if this operator can absorb a LIMIT. */
    default Optional<ExecutionPlan> withFetch(long fetch) {
        return Optional.empty();
    }

    default OptionalLong fetch() {
        return OptionalLong.empty();
    }

    default CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.UNKNOWN;
    }

    /** A plan with {@code sort} pushed into or below this operator, if it can take it. */
    default Optional<ExecutionPlan> tryPushdownSort(List<SortKey> sort) {
        return Optional.empty();
    }

    /** A copy that keeps its input order, if asked and able. */
    default ExecutionPlan withPreserveOrder(boolean preserveOrder) {
        return this;
    }

    /** The tree with each operator's output partitioning and ordering, as EXPLAIN prints it. */
    default String explain() {
        StringBuilder out = new StringBuilder();
        PhysicalPlanText.append(this, 0, out);
        return out.toString();
    }
}
