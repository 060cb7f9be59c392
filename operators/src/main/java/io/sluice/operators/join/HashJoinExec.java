package io.sluice.operators.join;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinMark;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.InputDistributionRequirements;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.hash.JoinHashTable;
import io.sluice.operators.memory.MemoryReservation;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Equi-join by hashing: {@code leftKeys[i] = rightKeys[i]} for every {@code i}, and then the
 * optional residual {@code filter} (over the left columns followed by the right ones). Output:
 * left columns then right columns for INNER, LEFT, RIGHT and FULL; left columns only for the
 * semi and anti joins.
 *
 * <h2>Semantics</h2>
 * SQL NULL rules: a NULL in any key column matches nothing. A pair of rows matches when the keys
 * are equal and the filter is TRUE (not FALSE, not NULL), so a pair failing the filter counts as no
 * match for the outer, semi and anti joins. LEFT keeps each unmatched left row once with NULL right
 * columns, RIGHT each unmatched right row with NULL left columns, FULL both. LEFT_SEMI outputs each
 * left row with a match once; LEFT_ANTI each left row without one. LEFT_ANTI_NULL_AWARE is
 * {@code l.k NOT IN (SELECT r.k FROM r WHERE filter)}: a left row is dropped when some right row
 * passes the filter and its key equals the left key or either key is NULL; so a NULL right key
 * drops every left row and a NULL left key survives only when no right row passes the filter. It
 * takes exactly one key (multi-column NOT IN needs row-wise NULL logic this operator does not do).
 * LEFT_MARK outputs every left row once with its mark appended (see {@link JoinMark}): over the
 * pairs whose keys are equal and whose filter is TRUE, the mark condition's three-valued OR, FALSE
 * when there is no such pair.
 *
 * <h2>Which side is built</h2>
 * The build side is read whole into a hash table; the probe side streams past it. The rule is:
 * build the side whose unmatched rows need not be output, so that each probe row's fate is known
 * as soon as its candidates are checked and no build-side bookkeeping has to survive the partition.
 * <ul>
 *   <li>INNER, RIGHT: build left, probe right ({@link Mode#COLLECT_RIGHT} INNER builds right).
 *   <li>LEFT, LEFT_SEMI, LEFT_ANTI, LEFT_ANTI_NULL_AWARE, LEFT_MARK: build right, probe left.
 *   <li>FULL: build left, probe right, and a matched flag per build row; the unmatched left rows
 *       are output after the probe side is drained.
 * </ul>
 * The planner should therefore put the smaller input on the built side (it can swap INNER inputs,
 * and turn LEFT into RIGHT by swapping). For a PARTITIONED LEFT, LEFT_SEMI or LEFT_ANTI join whose
 * left is much smaller than its right it may instead choose to build the left ({@link
 * #withLeftBuild}, {@code build=left} in EXPLAIN), as FULL does: a matched flag per left row, set
 * when some right row has equal keys and passes the filter; after the right side is drained the
 * semi join outputs the flagged left rows, the anti join the others, and the outer join (which
 * outputs its matched pairs while probing) the others with NULL right columns. A partition's
 * right side is every right row that can match its left rows, so the flags are final there. Not
 * for NOT IN or mark joins (a left row's answer depends on the whole right side) nor a broadcast
 * left (each partition would output the rows it flagged itself). Spilling works the same way: each
 * Grace partition holds every candidate of its left rows.
 *
 * <h2>Modes</h2>
 * <ul>
 *   <li>{@link Mode#PARTITIONED}: both inputs key-partitioned on their keys and co-partitioned;
 *       partition {@code p} joins left partition {@code p} with right partition {@code p}. Any
 *       type; NULL-aware anti requires one partition on each side, because whether the right side
 *       is empty or holds a NULL key is a fact about all of it.
 *   <li>{@link Mode#COLLECT_LEFT}: the left is broadcast (every partition reads all of it) and
 *       built; the right is probed partition by partition. Only INNER and RIGHT: a type that
 *       outputs unmatched left rows would output them once per partition, since no partition sees
 *       all right rows.
 *   <li>{@link Mode#COLLECT_RIGHT}: the mirror image (right broadcast and built, left probed),
 *       for INNER, LEFT, LEFT_SEMI, LEFT_ANTI and LEFT_ANTI_NULL_AWARE: the broadcast of a small
 *       {@code IN} / {@code EXISTS} subquery. Not in the original brief; it is what makes the
 *       left-preserving joins broadcastable.
 * </ul>
 * A broadcast side's table is built once per stage on a worker and shared by the stage's tasks
 * there, when the worker offers a {@link SharedBuildCache} (a task run elsewhere builds its own).
 *
 * <h2>Properties</h2>
 * Output partitioning is the probe side's: each output row is produced in the partition its probe
 * row came from, and the probe side's key columns are in the output (for semi and anti joins the
 * probe side is the left, whose columns are the output). A LEFT, LEFT_SEMI or LEFT_ANTI join that
 * builds its left is PARTITIONED: its output rows are left rows (or pairs with one) of the
 * partition they were read in, so it keeps the left's partitioning too. For FULL neither side's placement
 * survives (unmatched rows of both sides carry NULL keys in the other side's columns), so it is
 * unknown. No order is promised. After an INNER join {@code leftKeys[i]} and {@code rightKeys[i]}
 * are equal in every row, so a partitioning on one also describes the other: the properties
 * carry that as an equivalence, with the equivalences of each input whose columns are never
 * NULL-filled.
 *
 * <p>Memory: build rows stay in the Arrow vectors they arrived in ({@link BuildColumns}), their
 * keys and the hash table on the heap, under a reservation of the task's memory (a shared
 * broadcast table: of the worker's memory, once, for as long as it is kept); a build side that
 * does not fit goes to disk with the probe side, split by key hash, and the partitions are joined
 * one by one ({@link GraceHashJoin}).
 */
public record HashJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys,
        List<Expr> rightKeys, Expr filter, JoinMark mark, Mode mode, Schema joinedSchema, Schema schema,
        PlanProperties properties, long estimatedRows, boolean leftBuildChosen) implements ExecutionPlan {

    /** How the inputs are spread: see the class comment. */
    public enum Mode { PARTITIONED, COLLECT_LEFT, COLLECT_RIGHT }

    public HashJoinExec {
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        requireNonNull(type, "type is null");
        requireNonNull(mode, "mode is null");
        leftKeys = List.copyOf(leftKeys);
        rightKeys = List.copyOf(rightKeys);
        requireNonNull(joinedSchema, "joinedSchema is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(properties, "properties is null");
        JoinSupport.checkKeys("HashJoinExec", leftKeys, left.schema(), rightKeys, right.schema());
        JoinSupport.checkFilter("HashJoinExec", filter, joinedSchema);
        if ((type == JoinType.LEFT_MARK) != (mark != null)) {
            throw new IllegalArgumentException("HashJoinExec: a LEFT_MARK join, and only it, has a mark: " + type);
        }
        if (mark != null) {
            JoinSupport.checkFilter("HashJoinExec mark", mark.condition(), joinedSchema);
        }
        if (type == JoinType.LEFT_ANTI_NULL_AWARE && leftKeys.size() != 1) {
            throw new IllegalArgumentException("HashJoinExec: LEFT_ANTI_NULL_AWARE (NOT IN) takes exactly one key, got "
                    + leftKeys.size());
        }
        switch (mode) {
            case COLLECT_LEFT -> {
                if (type != JoinType.INNER && type != JoinType.RIGHT) {
                    throw new IllegalArgumentException("HashJoinExec: COLLECT_LEFT supports INNER and RIGHT joins, not "
                            + type + ": with the left broadcast to every partition, each partition would output the "
                            + "left rows it did not match itself, though another partition may match them");
                }
            }
            case COLLECT_RIGHT -> {
                if (type == JoinType.RIGHT || type == JoinType.FULL) {
                    throw new IllegalArgumentException("HashJoinExec: COLLECT_RIGHT does not support " + type
                            + " joins: with the right broadcast to every partition, each partition would output the "
                            + "right rows it did not match itself, though another partition may match them");
                }
            }
            case PARTITIONED -> {
            }
        }
        if (leftBuildChosen && !canChooseLeftBuild(type, mode)) {
            throw new IllegalArgumentException("HashJoinExec: building the left is a choice only for PARTITIONED "
                    + "LEFT, LEFT_SEMI and LEFT_ANTI joins, not " + mode + " " + type);
        }
    }

    /** As the canonical constructor, building the side the default rule names (see the class comment). */
    public HashJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys,
            List<Expr> rightKeys, Expr filter, JoinMark mark, Mode mode, Schema joinedSchema, Schema schema,
            PlanProperties properties, long estimatedRows) {
        this(left, right, type, leftKeys, rightKeys, filter, mark, mode, joinedSchema, schema, properties,
                estimatedRows, false);
    }

    /**
     * Whether a join of {@code type} in {@code mode} may build its left instead of its right:
     * LEFT, LEFT_SEMI and LEFT_ANTI in {@link Mode#PARTITIONED} mode, where partition {@code p}
     * sees every right row that can match its left rows, so a left row's matched flag is final
     * once the partition's right side is drained. Not NOT IN or a mark join (their answer for a
     * left row depends on facts about the whole right side: an empty right, a NULL right key),
     * and not a broadcast left, whose rows every partition would flag and output on its own.
     */
    public static boolean canChooseLeftBuild(JoinType type, Mode mode) {
        return mode == Mode.PARTITIONED
                && (type == JoinType.LEFT || type == JoinType.LEFT_SEMI || type == JoinType.LEFT_ANTI);
    }

    /**
     * This join building its left side instead of its right (a left much smaller than the right):
     * the right side streams past the left's table, which keeps a matched flag per left row, and
     * the left rows whose fate that decides (matched for semi, unmatched for anti and outer) come
     * after the right side is drained. Only where {@link #canChooseLeftBuild} allows it.
     */
    public HashJoinExec withLeftBuild() {
        return new HashJoinExec(left, right, type, leftKeys, rightKeys, filter, mark, mode, joinedSchema, schema,
                properties, estimatedRows, true);
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public HashJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys, List<Expr> rightKeys, Expr filter, JoinMark mark, Mode mode, Schema joinedSchema, Schema schema, PlanProperties properties) {
        this(left, right, type, leftKeys, rightKeys, filter, mark, mode, joinedSchema, schema, properties, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new HashJoinExec(left, right, type, leftKeys, rightKeys, filter, mark, mode, joinedSchema, schema, properties, rows,
                leftBuildChosen);
    }

    /** Derives the joined and output schemas and the properties once, here. */
    public HashJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys,
            List<Expr> rightKeys, Expr filter, Mode mode) {
        this(left, right, type, leftKeys, rightKeys, filter, null, mode);
    }

    /** As above, with the mark of a {@link JoinType#LEFT_MARK} join (null for any other type). */
    public HashJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys,
            List<Expr> rightKeys, Expr filter, JoinMark mark, Mode mode) {
        this(left, right, type, leftKeys, rightKeys, filter, mark, mode,
                JoinSupport.joinedSchema("HashJoinExec", left.schema(), right.schema()));
    }

    private HashJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType type, List<Expr> leftKeys,
            List<Expr> rightKeys, Expr filter, JoinMark mark, Mode mode, Schema joinedSchema) {
        this(left, right, type, leftKeys, rightKeys, filter, mark, mode, joinedSchema,
                mark == null ? JoinSupport.outputSchema(type, left.schema(), joinedSchema)
                        : Join.markSchema(left.schema(), mark.column()),
                propertiesOf(left, right, type, leftKeys, rightKeys, mode));
    }

    /** Whether the left input is the one read into the hash table (see the class comment). */
    public boolean buildsLeft() {
        return leftBuildChosen || buildsLeft(type, mode);
    }

    private static boolean buildsLeft(JoinType type, Mode mode) {
        return switch (type) {
            case INNER -> mode != Mode.COLLECT_RIGHT;
            case RIGHT, FULL -> true;
            case LEFT, LEFT_SEMI, LEFT_ANTI, LEFT_ANTI_NULL_AWARE, LEFT_MARK -> false;
        };
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
            throw new IllegalArgumentException("HashJoinExec takes two children, got " + children.size());
        }
        HashJoinExec copy = new HashJoinExec(children.get(0), children.get(1), type, leftKeys, rightKeys, filter, mark, mode);
        return (leftBuildChosen ? copy.withLeftBuild() : copy).withEstimatedRows(estimatedRows);
    }

    private static PlanProperties propertiesOf(ExecutionPlan left, ExecutionPlan right, JoinType type,
            List<Expr> leftKeys, List<Expr> rightKeys, Mode mode) {
        // The default build side, also when the left is chosen to be built: see the class comment.
        Partitioning probe = (buildsLeft(type, mode) ? right : left).properties().partitioning();
        if (type == JoinType.FULL && probe.partitionCount() > 1) {
            return PlanProperties.of(new Partitioning.Unknown(probe.partitionCount()));
        }
        return JoinSupport.withKeyEquivalences(probe, type, left, right, leftKeys, rightKeys);
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        return switch (mode) {
            case PARTITIONED -> type == JoinType.LEFT_ANTI_NULL_AWARE
                    ? List.of(Distribution.SINGLE, Distribution.SINGLE)
                    : List.of(new Distribution.KeyPartitioned(leftKeys), new Distribution.KeyPartitioned(rightKeys));
            case COLLECT_LEFT -> List.of(Distribution.BROADCAST, Distribution.UNSPECIFIED);
            case COLLECT_RIGHT -> List.of(Distribution.UNSPECIFIED, Distribution.BROADCAST);
        };
    }

    @Override
    public InputDistributionRequirements inputDistributionRequirements() {
        return mode == Mode.PARTITIONED ? InputDistributionRequirements.CO_PARTITIONED
                : InputDistributionRequirements.INDEPENDENT;
    }

    @Override
    public List<Boolean> benefitsFromInputPartitioning() {
        return switch (mode) {
            case PARTITIONED -> List.of(true, true);
            case COLLECT_LEFT -> List.of(false, true);
            case COLLECT_RIGHT -> List.of(true, false);
        };
    }

    @Override
    public String describe() {
        StringBuilder on = new StringBuilder();
        for (int i = 0; i < leftKeys.size(); i++) {
            on.append(i == 0 ? "" : ", ").append('(').append(leftKeys.get(i)).append(", ").append(rightKeys.get(i))
                    .append(')');
        }
        return "HashJoinExec: mode=" + mode.name().toLowerCase() + ", type=" + type.name().toLowerCase() + ", on=["
                + on + "]" + (filter == null ? "" : ", filter=" + filter) + (mark == null ? "" : ", mark=" + mark)
                + ", build=" + (buildsLeft() ? "left" : "right");
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        requireNonNull(context, "context is null");
        JoinSupport.checkInputs(this, inputDistributionRequirements() == InputDistributionRequirements.CO_PARTITIONED);
        boolean buildLeft = buildsLeft();
        ExecutionPlan build = buildLeft ? left : right;
        ExecutionPlan probe = buildLeft ? right : left;
        List<Expr> buildKeys = buildLeft ? leftKeys : rightKeys;
        List<Expr> probeKeys = buildLeft ? rightKeys : leftKeys;
        DataType[] keyTypes = new DataType[buildKeys.size()];
        for (int i = 0; i < keyTypes.length; i++) {
            keyTypes[i] = buildKeys.get(i).type(build.schema());
        }
        SharedBuildCache.Stage shared = mode == Mode.PARTITIONED ? null : context.serviceOrNull(SharedBuildCache.Stage.class);
        if (shared != null) {
            BatchStream joined = executeShared(shared, partition, context, build, probe, buildKeys, probeKeys, keyTypes);
            if (joined != null) {
                return joined;
            }
        }
        MemoryReservation reservation = context.reserve(describe() + " build side");
        BatchStream buildStream;
        JoinSupport.BuildChunks chunks = new JoinSupport.BuildChunks(build.schema(), context.allocator(), null);
        boolean fits;
        try {
            buildStream = build.execute(partition, context);
            try {
                fits = chunks.read(buildStream, buildKeys, reservation, GraceHashJoin.supports(type));
            } catch (RuntimeException | Error e) {
                buildStream.close();
                throw e;
            }
        } catch (RuntimeException | Error e) {
            chunks.close();
            reservation.close();
            throw e;
        }
        if (!fits) {
            // The build side does not fit: both sides go to disk in partitions, joined one by one.
            return GraceHashJoin.start(this, chunks, buildStream, reservation, build.schema(), buildKeys, probe.schema(),
                    probeKeys, keyTypes, () -> probe.execute(partition, context), context);
        }
        JoinSupport.Collected built = null;
        try {
            buildStream.close();
            built = chunks.collected(build.schema(), buildKeys, reservation);
            JoinHashTable table = JoinHashTable.build(built.keys(), keyTypes, built.rows());
            reservation.grow(table.heapBytes());
            context.recordBuild();
            BatchStream probeStream = probe.execute(partition, context);
            return new HashJoinStream(this, built, true, table, probeStream, probeKeys, context, reservation);
        } catch (RuntimeException | Error e) {
            chunks.close();
            if (built != null) {
                built.columns().close();
            }
            reservation.close();
            throw e;
        }
    }

    /**
     * A build side and its table, read-only once built: shared by the tasks of a stage on a worker.
     * Its vectors live in an allocator of its own (a child of the worker's root, not of the task
     * that built it, which may end first); the cache closes it when it drops the table.
     */
    private record SharedTable(JoinSupport.Collected built, JoinHashTable table) implements AutoCloseable {
        @Override
        public void close() {
            built.columns().close();
        }
    }

    /**
     * The broadcast side's table from the worker's {@link SharedBuildCache}, built by this task if
     * no other task of the stage on this worker built it; null when this task must build its own
     * (the table does not fit in memory, or another task's build took too long).
     */
    private BatchStream executeShared(SharedBuildCache.Stage shared, int partition, TaskContext context,
            ExecutionPlan build, ExecutionPlan probe, List<Expr> buildKeys, List<Expr> probeKeys, DataType[] keyTypes) {
        SharedBuildCache.Lease<SharedTable> lease = shared.acquire(sharedBuildKey(build), context, pool -> {
            MemoryReservation reservation = context.reserveFrom(pool, describe() + " shared build side");
            BufferAllocator allocator = context.allocator().getRoot().newChildAllocator("shared hash join build of "
                    + shared.stageId(), 0, Long.MAX_VALUE);
            JoinSupport.BuildChunks chunks = new JoinSupport.BuildChunks(build.schema(), allocator, allocator);
            JoinSupport.Collected built = null;
            try {
                try (BatchStream buildStream = build.execute(partition, context)) {
                    if (!chunks.read(buildStream, buildKeys, reservation, GraceHashJoin.supports(type))) {
                        chunks.close();
                        return null;
                    }
                }
                built = chunks.collected(build.schema(), buildKeys, reservation);
                JoinHashTable table = JoinHashTable.build(built.keys(), keyTypes, built.rows());
                reservation.grow(table.heapBytes());
                context.recordBuild();
                return new SharedTable(built, table);
            } catch (RuntimeException | Error e) {
                chunks.close();
                if (built != null) {
                    built.columns().close();
                }
                throw e;
            }
        });
        if (lease == null) {
            return null;
        }
        MemoryReservation own = context.reserve(describe() + " probe side");
        BatchStream joined;
        try {
            BatchStream probeStream = probe.execute(partition, context);
            joined = new HashJoinStream(this, lease.value().built(), false, lease.value().table(), probeStream,
                    probeKeys, context, own);
        } catch (RuntimeException | Error e) {
            own.close();
            lease.close();
            throw e;
        }
        return new BatchStream() {
            @Override
            public io.sluice.kernels.Batch next() {
                return joined.next();
            }

            @Override
            public void close() {
                try {
                    joined.close();
                } finally {
                    lease.close();
                }
            }
        };
    }

    /**
     * What determines the shared table within a stage: this join (type, keys, filter, which side
     * is built) and the build side's plan. The build side is broadcast, so every partition of it
     * is all of it: the table is the same for every task of the stage.
     */
    private String sharedBuildKey(ExecutionPlan build) {
        StringBuilder key = new StringBuilder(describe()).append('\n');
        appendTree(key, build, 0);
        return key.toString();
    }

    private static void appendTree(StringBuilder out, ExecutionPlan node, int depth) {
        out.append(depth).append(' ').append(node.describe()).append(' ').append(node.schema()).append('\n');
        for (ExecutionPlan child : node.children()) {
            appendTree(out, child, depth + 1);
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}
