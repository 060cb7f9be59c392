package io.sluice.operators.aggregate;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.hash.GroupTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Hash aggregation, one phase of two. The partial phase groups raw rows by {@code groupBy} and
 * emits, per group, the key columns (named by {@link Expr#name()}) and each aggregate's state
 * columns ({@code <name>#0}, {@code <name>#1}, ...). The final phase requires its input
 * key-partitioned on those key columns (or in one partition when there are no keys), merges the
 * states and emits the keys and the aggregate values (named by the aggregate's name).
 *
 * <p>A final aggregate without keys emits exactly one row even for empty input, as SQL requires.
 *
 * <p>When the input's ordering covers the group keys (its properties say so, a sort-merge join's
 * output on the join key, say), the same operator streams instead of hashing: equal keys are
 * adjacent, so it holds one open group at a time ({@link SortedAggregateStream}) and its output
 * keeps that order.
 */
public record HashAggregateExec(AggregateMode mode, ExecutionPlan input, List<Expr> groupBy, List<Expr> aggregates,
        List<DataType> argumentTypes, Schema schema, PlanProperties properties, long estimatedRows) implements ExecutionPlan {

    public HashAggregateExec {
        requireNonNull(mode, "mode is null");
        requireNonNull(input, "input is null");
        groupBy = List.copyOf(groupBy);
        aggregates = List.copyOf(aggregates);
        argumentTypes = List.copyOf(argumentTypes);
        requireNonNull(schema, "schema is null");
        requireNonNull(properties, "properties is null");
        if (argumentTypes.size() != aggregates.size()) {
            throw new IllegalArgumentException("one argument type per aggregate");
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public HashAggregateExec(AggregateMode mode, ExecutionPlan input, List<Expr> groupBy, List<Expr> aggregates, List<DataType> argumentTypes, Schema schema, PlanProperties properties) {
        this(mode, input, groupBy, aggregates, argumentTypes, schema, properties, UNKNOWN_ROWS);
    }

    @Override
    public HashAggregateExec withEstimatedRows(long rows) {
        return new HashAggregateExec(mode, input, groupBy, aggregates, argumentTypes, schema, properties, rows);
    }

    /** Derives the properties once, here. */
    public HashAggregateExec(AggregateMode mode, ExecutionPlan input, List<Expr> groupBy, List<Expr> aggregates,
            List<DataType> argumentTypes, Schema schema) {
        this(mode, input, groupBy, aggregates, argumentTypes, schema, propertiesOf(mode, input, List.copyOf(groupBy)));
    }

    /** The partial phase over raw input. */
    public static HashAggregateExec partial(ExecutionPlan input, List<Expr> groupBy, List<Expr> aggregates) {
        Schema in = input.schema();
        List<DataType> argTypes = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (Expr g : groupBy) {
            fields.add(new Field(g.name(), g.type(in)));
        }
        for (Expr a : aggregates) {
            AggregateCall call = call(a);
            DataType argType = call.argument() == null ? DataType.INT64 : call.argument().type(in);
            argTypes.add(argType);
            DataType secondType = call.second() == null ? null : call.second().type(in);
            List<DataType> states = Accumulators.create(call, argType, secondType).stateTypes();
            for (int i = 0; i < states.size(); i++) {
                fields.add(new Field(a.name() + "#" + i, states.get(i)));
            }
        }
        return new HashAggregateExec(AggregateMode.PARTIAL, input, groupBy, aggregates, argTypes, new Schema(fields));
    }

    /** The final phase over the output of {@code partial} (after any exchange). */
    public static HashAggregateExec finalPhase(ExecutionPlan input, HashAggregateExec partial) {
        List<Expr> keys = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < partial.groupBy.size(); i++) {
            Field f = partial.schema.field(i);
            keys.add(new Column(f.name()));
            fields.add(f);
        }
        for (int i = 0; i < partial.aggregates.size(); i++) {
            Expr a = partial.aggregates.get(i);
            fields.add(new Field(a.name(), call(a).function().resultType(partial.argumentTypes.get(i))));
        }
        return new HashAggregateExec(AggregateMode.FINAL, input, keys, partial.aggregates, partial.argumentTypes,
                new Schema(fields));
    }

    private static AggregateCall call(Expr e) {
        return (AggregateCall) Exprs.unalias(e);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new HashAggregateExec(mode, children.get(0), groupBy, aggregates, argumentTypes, schema).withEstimatedRows(estimatedRows);
    }

    /**
     * Keys that are group-key columns: a group exists exactly when an input row with its key does,
     * and its aggregates see only rows of its key, so dropping rows by key commutes with grouping.
     */
    @Override
    public Optional<List<Expr>> filterKeysOnInput(List<Expr> keys) {
        List<Expr> below = new ArrayList<>(keys.size());
        for (Expr key : keys) {
            Expr group = null;
            if (Exprs.unalias(key) instanceof Column c) {
                for (Expr g : groupBy) {
                    if (g.name().equals(c.column())) {
                        group = Exprs.unalias(g);
                    }
                }
            }
            if (group == null) {
                return Optional.empty();
            }
            below.add(group);
        }
        return Optional.of(below);
    }

    /**
     * Final: keys keep their names, so the input's key partitioning describes the output too.
     * Partial: each output row is produced in the partition its input rows were in, so an input
     * hashed or range-partitioned on (expressions known equal to) grouping columns stays so on those
     * output columns; that is what lets the final phase above a join on the grouping key skip a
     * second shuffle. Equivalences among grouping columns hold for the output keys as well.
     */
    private static PlanProperties propertiesOf(AggregateMode mode, ExecutionPlan input, List<Expr> groupBy) {
        PlanProperties in = input.properties();
        List<SortKey> ordering = sortedOn(in, groupBy).map(keys -> outputOrdering(keys, in, groupBy)).orElse(List.of());
        if (mode == AggregateMode.FINAL) {
            return PlanProperties.of(in.partitioning(), ordering);
        }
        Partitioning partitioning = in.partitioning().mapKeys(k -> outputKeyFor(k, in, groupBy));
        List<List<Expr>> equivalences = new ArrayList<>();
        for (List<Expr> group : in.equivalences()) {
            List<Expr> outputs = new ArrayList<>();
            for (Expr g : groupBy) {
                if (g instanceof Column && group.contains(g)) {
                    outputs.add(new Column(g.name()));
                }
            }
            equivalences.add(outputs);
        }
        return new PlanProperties(partitioning, ordering, in.bounded(), equivalences);
    }

    /**
     * The input ordering's leading keys when they are exactly the group keys (in any order and
     * direction, equivalences counted): then equal groups are adjacent and the aggregation can
     * stream ({@link SortedAggregateStream}). Empty when there are no group keys or they are not
     * covered.
     */
    private static Optional<List<SortKey>> sortedOn(PlanProperties in, List<Expr> groupBy) {
        List<SortKey> ordering = in.ordering();
        if (groupBy.isEmpty()) {
            return Optional.empty();
        }
        Set<Expr> need = new HashSet<>();
        for (Expr g : groupBy) {
            need.add(in.representative(g));
        }
        Set<Expr> seen = new HashSet<>();
        for (int i = 0; i < ordering.size(); i++) {
            Expr rep = in.representative(ordering.get(i).expr());
            if (!need.contains(rep)) {
                return Optional.empty();
            }
            seen.add(rep);
            if (seen.equals(need)) {
                return Optional.of(ordering.subList(0, i + 1));
            }
        }
        return Optional.empty();
    }

    /** The input ordering keys as output key columns, in the same directions. */
    private static List<SortKey> outputOrdering(List<SortKey> inputKeys, PlanProperties in, List<Expr> groupBy) {
        List<SortKey> out = new ArrayList<>();
        for (SortKey k : inputKeys) {
            Optional<Expr> column = outputKeyFor(k.expr(), in, groupBy);
            if (column.isEmpty()) {
                return List.of();
            }
            out.add(new SortKey(column.get(), k.ascending(), k.nullsFirst()));
        }
        return out;
    }

    /** Whether the input's order keeps groups adjacent, so the aggregation streams instead of hashing. */
    public boolean sortedInput() {
        return sortedOn(input.properties(), groupBy).isPresent();
    }

    /** The output key column of a grouping column equal (or known equal) to input expression {@code k}. */
    private static Optional<Expr> outputKeyFor(Expr k, PlanProperties in, List<Expr> groupBy) {
        Expr rep = in.representative(k);
        return groupBy.stream().filter(g -> (g instanceof Column || g.equals(k)) && in.representative(g).equals(rep))
                .findFirst().map(g -> new Column(g.name()));
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        if (mode == AggregateMode.PARTIAL) {
            return List.of(Distribution.UNSPECIFIED);
        }
        return List.of(groupBy.isEmpty() ? Distribution.SINGLE : new Distribution.KeyPartitioned(groupBy));
    }

    @Override
    public List<Boolean> benefitsFromInputPartitioning() {
        return List.of(true);
    }

    @Override
    public String describe() {
        return "HashAggregateExec: mode=" + mode.name().toLowerCase() + (sortedInput() ? ", sorted" : "") + ", groupBy=["
                + groupBy.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "], aggr=["
                + aggregates.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "]";
    }

    /**
     * Over input sorted on the group keys, streams (one open group at a time). Otherwise groups the
     * partition within the task's memory ({@link AggregateStream}): a partial phase that is refused
     * memory emits its groups so far and starts again (the final phase merges them); a final phase
     * moves its table to disk as sorted runs and merges them at the end.
     */
    @Override
    public BatchStream execute(int partition, TaskContext context) {
        AggregateInputs inputs = bindInputs(); // before the input opens a stream
        if (sortedInput()) {
            return new SortedAggregateStream(input.execute(partition, context), groupBy, mode == AggregateMode.PARTIAL,
                    inputs, this::newAccumulators, schema, context);
        }
        return new AggregateStream(this, inputs, input.execute(partition, context), context);
    }

    /** The group keys and (partial phase) the calls' arguments, bound to the input's columns for one stream. */
    AggregateInputs bindInputs() {
        List<Expr> arguments = new ArrayList<>(aggregates.size());
        List<Expr> seconds = new ArrayList<>(aggregates.size());
        for (Expr a : aggregates) {
            arguments.add(call(a).argument());
            seconds.add(call(a).second());
        }
        return new AggregateInputs(groupBy, arguments, seconds, mode == AggregateMode.PARTIAL, input.schema());
    }

    Accumulator[] newAccumulators() {
        Accumulator[] accumulators = new Accumulator[aggregates.size()];
        for (int i = 0; i < accumulators.length; i++) {
            AggregateCall call = call(aggregates.get(i));
            DataType secondType = mode == AggregateMode.PARTIAL && call.second() != null
                    ? call.second().type(input.schema()) : null;
            accumulators[i] = Accumulators.create(call, argumentTypes.get(i), secondType);
            for (int j = 0; j < i; j++) {
                if (accumulators[i] instanceof SumLongAccumulator later && accumulators[j] instanceof SumLongAccumulator earlier
                        && sameSumArgument(call, call(aggregates.get(j)))) {
                    accumulators[i] = later.sharing(earlier);
                    break;
                }
            }
        }
        return accumulators;
    }

    /** Whether two calls are each a sum or an average of the same argument, whose states are then the same. */
    private static boolean sameSumArgument(AggregateCall a, AggregateCall b) {
        Set<AggregateFunction> sums = Set.of(AggregateFunction.SUM, AggregateFunction.AVG);
        return sums.contains(a.function()) && sums.contains(b.function()) && a.argument().equals(b.argument())
                && a.options().equals(b.options());
    }

    DataType[] keyTypes() {
        Schema inSchema = input.schema();
        DataType[] keyTypes = new DataType[groupBy.size()];
        for (int i = 0; i < keyTypes.length; i++) {
            keyTypes[i] = groupBy.get(i).type(inSchema);
        }
        return keyTypes;
    }

    /**
     * Folds one input batch into the table: raw rows (partial) or partial states (final). Columns
     * the batch holds as fixed-width Arrow vectors are read in place ({@link InPlaceValues}): a
     * single long-backed key's group ids come straight from its vector, and sum, count, min and
     * max fold their argument's vector; the rest reads heap columns. The group ids and hashes go to
     * the stream's scratch arrays ({@link AggregateInputs}), so a batch allocates nothing per row
     * on the in-place path. Short keys (q1's two flags) pack into one long per row, read from their
     * vectors ({@link GroupTable#packsKeys}).
     */
    void consume(Batch batch, AggregateInputs inputs, GroupTable table, Accumulator[] accumulators) {
        int rows = batch.rowCount();
        if (rows == 0) {
            return;
        }
        int[] groups = keyless() ? inputs.zeros(rows) : groupIds(batch, rows, inputs, table);
        int groupCount = table.groupCount();
        if (mode == AggregateMode.PARTIAL) {
            for (int i = 0; i < accumulators.length; i++) {
                if (accumulators[i].sharesState()) {
                    continue;
                }
                accumulators[i].ensureCapacity(groupCount);
                Col second = inputs.secondArgument(i, batch);
                if (second != null) {
                    accumulators[i].update(groups, rows, inputs.argument(i, batch), second);
                    continue;
                }
                InPlaceValues arrow = inputs.argumentInPlace(i, batch);
                if (arrow != null && accumulators[i].updateInPlace(groups, rows, arrow)) {
                    continue;
                }
                FieldVector vector = inputs.argumentVector(i, batch);
                if (vector == null || !accumulators[i].updateNonNulls(groups, rows, vector)) {
                    accumulators[i].update(groups, rows, inputs.argument(i, batch));
                }
            }
        } else {
            mergeStates(batch, groupBy.size(), groups, rows, groupCount, accumulators);
        }
    }

    private boolean keyless() {
        return groupBy.isEmpty();
    }

    /** The group id of each row of {@code batch}, in the stream's scratch array. */
    private int[] groupIds(Batch batch, int rows, AggregateInputs inputs, GroupTable table) {
        int[] ids = inputs.ids(rows);
        if (table.takesInPlaceKey()) {
            InPlaceValues key = inputs.keyInPlace(0, batch);
            if (key != null) {
                return table.groupIds(key, rows, ids);
            }
        }
        if (table.packsKeys()) {
            FieldVector[] vectors = inputs.keyVectors(groupBy.size(), batch);
            if (vectors != null && table.groupIds(vectors, rows, ids, inputs.hashes(rows))) {
                return ids;
            }
        }
        Col[] keys = new Col[groupBy.size()];
        Utf8Bytes[] utf8 = null;
        for (int i = 0; i < keys.length; i++) {
            // a string key column that arrives as Arrow is grouped on its bytes, not decoded
            Utf8Bytes bytes = inputs.keyBytes(i, batch);
            if (bytes != null) {
                utf8 = utf8 == null ? new Utf8Bytes[keys.length] : utf8;
                utf8[i] = bytes;
            } else {
                keys[i] = inputs.key(i, batch);
            }
        }
        return table.groupIds(keys, utf8, rows, ids, inputs.hashes(rows));
    }

    /**
     * Merges the partial states in {@code batch}'s columns from {@code column} on into the groups:
     * states the batch holds as fixed-width vectors (a shuffle fetch) are read in place where the
     * accumulator takes them, the rest from heap columns.
     */
    static void mergeStates(Batch batch, int column, int[] groups, int rows, int groupCount, Accumulator[] accumulators) {
        for (Accumulator accumulator : accumulators) {
            int width = accumulator.stateTypes().size();
            if (accumulator.sharesState()) {
                column += width;
                continue;
            }
            accumulator.ensureCapacity(groupCount);
            InPlaceValues[] inPlace = new InPlaceValues[width];
            boolean allInPlace = true;
            for (int s = 0; s < width && allInPlace; s++) {
                inPlace[s] = batch.inPlace(column + s);
                allInPlace = inPlace[s] != null;
            }
            if (!allInPlace || !accumulator.mergeInPlace(groups, rows, inPlace)) {
                Col[] states = new Col[width];
                for (int s = 0; s < width; s++) {
                    states[s] = batch.column(column + s);
                }
                accumulator.merge(groups, rows, states);
            }
            column += width;
        }
    }

    /** Groups {@code [from, from + count)} as output columns: keys, then states (partial) or values (final). */
    Col[] output(GroupTable table, Accumulator[] accumulators, int from, int count, boolean states) {
        Col[] out = new Col[groupBy.size() + (states ? stateWidth(accumulators) : accumulators.length)];
        Col[] keys = table.keyColumns(from, count);
        System.arraycopy(keys, 0, out, 0, keys.length);
        int column = keys.length;
        for (Accumulator a : accumulators) {
            if (states) {
                for (Col state : a.states(from, count)) {
                    out[column++] = state;
                }
            } else {
                out[column++] = a.result(from, count);
            }
        }
        return out;
    }

    /**
     * As {@link #output}, written straight to a new Arrow batch owned by the caller: the keys from the
     * table's stored form (string keys as bytes, never decoded), so the next operator, a shuffle or
     * the client reads Arrow without the aggregate's heap columns being encoded again.
     */
    Batch outputBatch(GroupTable table, Accumulator[] accumulators, int from, int count, boolean states,
            BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        try {
            for (int k = 0; k < groupBy.size(); k++) {
                vectors.add(table.keyVector(k, from, count, schema.field(k).name(), allocator));
            }
            for (Accumulator a : accumulators) {
                for (Col c : states ? a.states(from, count) : new Col[] {a.result(from, count)}) {
                    vectors.add(c.write(schema.field(vectors.size()).name(), allocator));
                }
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, new VectorSchemaRoot(schema.toArrow().getFields(), vectors, count));
    }

    private static int stateWidth(Accumulator[] accumulators) {
        int width = 0;
        for (Accumulator a : accumulators) {
            width += a.stateTypes().size();
        }
        return width;
    }
}
