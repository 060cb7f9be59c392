package io.sluice.operators.join;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.InputDistributionRequirements;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;

/**
 * Equi-join of two inputs sorted on their keys: {@code leftKeys[i] = rightKeys[i]} for every
 * {@code i}, then the optional residual {@code filter} over left columns followed by right ones.
 * Same output and NULL semantics as {@link HashJoinExec} for INNER, LEFT, RIGHT, FULL, LEFT_SEMI
 * and LEFT_ANTI (NULL-aware anti is not offered: it needs global facts about the right side).
 *
 * <p>Requirements: both inputs range-partitioned on their keys (ascending, NULLs last) with the
 * same split points ({@link #inputDistributionRequirements()}), so partition {@code i} of each side
 * covers the same key range, and each partition sorted by those keys. Partition {@code p} merges
 * left partition {@code p} with right partition {@code p}, streaming: it holds one batch of each
 * side plus the rows of the current key group (a key spanning batches is gathered whole, as any
 * merge join must for its cross product).
 *
 * <p>Output partitioning is the left's for INNER, LEFT and the semi/anti joins (every output row
 * carries its left row's key in the partition the left row came from), the right's for RIGHT, and
 * unknown for FULL (unmatched rows of each side carry NULLs in the other side's keys). Output order
 * is not promised: unmatched rows are emitted after the matches of the same stretch of input.
 */
public record SortMergeJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys,
        List<Expr> rightKeys, Expr filter, Schema joinedSchema, Schema schema, PlanProperties properties, long estimatedRows)
        implements ExecutionPlan {

    public SortMergeJoinExec {
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        requireNonNull(type, "type is null");
        leftKeys = List.copyOf(leftKeys);
        rightKeys = List.copyOf(rightKeys);
        if (!supports(type)) {
            throw new IllegalArgumentException("SortMergeJoinExec does not support " + type
                    + ": use HashJoinExec (NOT IN must see the whole right side; a mark join needs a mark condition)");
        }
        requireNonNull(joinedSchema, "joinedSchema is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(properties, "properties is null");
        JoinSupport.checkKeys("SortMergeJoinExec", leftKeys, left.schema(), rightKeys, right.schema());
        JoinSupport.checkFilter("SortMergeJoinExec", filter, joinedSchema);
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public SortMergeJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys, List<Expr> rightKeys, Expr filter, Schema joinedSchema, Schema schema, PlanProperties properties) {
        this(left, right, type, leftKeys, rightKeys, filter, joinedSchema, schema, properties, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new SortMergeJoinExec(left, right, type, leftKeys, rightKeys, filter, joinedSchema, schema, properties, rows);
    }

    /**
     * Whether this operator can run a join of {@code type}: every type but the NULL-aware anti join
     * (whose answer depends on the whole right side) and the mark join (which has no mark here).
     * The planner asks before choosing it.
     */
    public static boolean supports(JoinType type) {
        return type != JoinType.LEFT_ANTI_NULL_AWARE && type != JoinType.LEFT_MARK;
    }

    /** Derives the joined and output schemas and the properties once, here. */
    public SortMergeJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys,
            List<Expr> rightKeys, Expr filter) {
        this(left, right, type, leftKeys, rightKeys, filter,
                JoinSupport.joinedSchema("SortMergeJoinExec", left.schema(), right.schema()));
    }

    private SortMergeJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys,
            List<Expr> rightKeys, Expr filter, Schema joinedSchema) {
        this(left, right, type, leftKeys, rightKeys, filter, joinedSchema,
                JoinSupport.outputSchema(type, left.schema(), joinedSchema),
                propertiesOf(left, right, type, leftKeys, rightKeys));
    }

    /** The order each input must have: its keys ascending, NULLs last. */
    public List<SortKey> leftSortKeys() {
        return leftKeys.stream().map(SortKey::asc).toList();
    }

    public List<SortKey> rightSortKeys() {
        return rightKeys.stream().map(SortKey::asc).toList();
    }

    @Override
    public List<java.util.Optional<List<Expr>>> outputKeysOnInputs(List<Expr> keys) {
        return JoinSupport.outputKeysOnInputs(type, left, right, leftKeys, rightKeys, keys);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(left, right);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (children.size() != 2) {
            throw new IllegalArgumentException("SortMergeJoinExec takes two children, got " + children.size());
        }
        return new SortMergeJoinExec(children.get(0), children.get(1), type, leftKeys, rightKeys, filter).withEstimatedRows(estimatedRows);
    }

    private static PlanProperties propertiesOf(ExecutionPlan left, ExecutionPlan right, JoinType type,
            List<Expr> leftKeys, List<Expr> rightKeys) {
        Partitioning l = left.properties().partitioning();
        Partitioning out = switch (type) {
            case RIGHT -> right.properties().partitioning();
            case FULL -> l.partitionCount() == 1 ? l : new Partitioning.Unknown(l.partitionCount());
            default -> l;
        };
        PlanProperties props = JoinSupport.withKeyEquivalences(out, type, left, right, leftKeys, rightKeys);
        if (type != JoinType.INNER) {
            return props;
        }
        // An inner merge emits the pairs of each key group in key order: the output is sorted on the keys.
        List<SortKey> ordering = leftKeys.stream().map(SortKey::asc).toList();
        return new PlanProperties(props.partitioning(), ordering, props.bounded(), props.equivalences(), props.constants());
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        return List.of(new Distribution.RangePartitioned(leftSortKeys()),
                new Distribution.RangePartitioned(rightSortKeys()));
    }

    @Override
    public InputDistributionRequirements inputDistributionRequirements() {
        return InputDistributionRequirements.CO_PARTITIONED;
    }

    @Override
    public List<List<SortKey>> requiredInputOrdering() {
        return List.of(leftSortKeys(), rightSortKeys());
    }

    @Override
    public List<Boolean> benefitsFromInputPartitioning() {
        return List.of(true, true);
    }

    @Override
    public String describe() {
        StringBuilder on = new StringBuilder();
        for (int i = 0; i < leftKeys.size(); i++) {
            on.append(i == 0 ? "" : ", ").append('(').append(leftKeys.get(i)).append(", ").append(rightKeys.get(i))
                    .append(')');
        }
        return "SortMergeJoinExec: type=" + type.name().toLowerCase() + ", on=[" + on + "]"
                + (filter == null ? "" : ", filter=" + filter);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        requireNonNull(context, "context is null");
        JoinSupport.checkInputs(this, true);
        List<List<SortKey>> orderings = requiredInputOrdering();
        for (int i = 0; i < 2; i++) {
            ExecutionPlan child = children().get(i);
            if (!child.properties().orderingSatisfies(orderings.get(i))) {
                throw new IllegalStateException(describe() + ": input " + i + " is ordered "
                        + child.properties().ordering() + ", not by " + orderings.get(i));
            }
        }
        BatchStream l = left.execute(partition, context);
        BatchStream r;
        try {
            r = right.execute(partition, context);
        } catch (RuntimeException e) {
            l.close();
            throw e;
        }
        return new MergeJoinStream(this, l, r, context);
    }

    @Override
    public String toString() {
        return describe();
    }
}
