package io.sluice.plan.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.exec.Col;
import io.sluice.plan.expr.AggregateCall;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.physical.Distribution;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Field;
import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Hash aggregation, one phase of two. The partial phase groups raw rows by {@code groupBy} and
 * emits, per group, the key columns (named by {@link Expr#name()}) and each aggregate's state
 * columns ({@code <name>#0}, {@code <name>#1}, ...). The final phase requires its input
 * key-partitioned on those key columns (or in one partition when there are no keys), merges the
 * states and emits the keys and the aggregate values (named by the aggregate's name).
 *
 * <p>A final aggregate without keys emits exactly one row even for empty input, as SQL requires.
 */
public record HashAggregateExec(AggregateMode mode, ExecutionPlan input, List<Expr> groupBy, List<Expr> aggregates,
        List<DataType> argumentTypes, Schema schema, PlanProperties properties) implements ExecutionPlan {

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
            List<DataType> states = Accumulator.create(call.function(), argType, call.toString()).stateTypes();
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
        return new HashAggregateExec(mode, children.get(0), groupBy, aggregates, argumentTypes, schema);
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
        if (mode == AggregateMode.FINAL) {
            return PlanProperties.of(in.partitioning());
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
        return new PlanProperties(partitioning, List.of(), in.bounded(), equivalences);
    }

    /** The output key column of a grouping column equal (or known equal) to input expression {@code k}. */
    private static java.util.Optional<Expr> outputKeyFor(Expr k, PlanProperties in, List<Expr> groupBy) {
        Expr rep = in.representative(k);
        return groupBy.stream().filter(g -> g instanceof Column && in.representative(g).equals(rep)).findFirst()
                .map(g -> new Column(g.name()));
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
        return "HashAggregateExec: mode=" + mode.name().toLowerCase() + ", groupBy=["
                + groupBy.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "], aggr=["
                + aggregates.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "]";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        Accumulator[] accumulators = new Accumulator[aggregates.size()];
        for (int i = 0; i < accumulators.length; i++) {
            AggregateCall call = call(aggregates.get(i));
            accumulators[i] = Accumulator.create(call.function(), argumentTypes.get(i), call.toString());
        }
        Schema inSchema = input.schema();
        DataType[] keyTypes = new DataType[groupBy.size()];
        for (int i = 0; i < keyTypes.length; i++) {
            keyTypes[i] = groupBy.get(i).type(inSchema);
        }
        GroupTable table = new GroupTable(keyTypes);
        if (groupBy.isEmpty()) {
            table.addEmptyKeyGroup();
            for (Accumulator a : accumulators) {
                a.ensureCapacity(1);
            }
        }
        try (BatchStream in = input.execute(partition, context)) {
            Batch batch;
            while ((batch = in.next()) != null) {
                try (Batch b = batch) {
                    consume(b, table, accumulators);
                }
            }
        }
        return emit(table, accumulators, context);
    }

    private void consume(Batch batch, GroupTable table, Accumulator[] accumulators) {
        int rows = batch.rowCount();
        if (rows == 0) {
            return;
        }
        Col[] keys = new Col[groupBy.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = groupBy.get(i).evaluate(batch);
        }
        int[] groups = keys.length == 0 ? new int[rows] : table.groupIds(keys, rows);
        int groupCount = table.groupCount();
        if (mode == AggregateMode.PARTIAL) {
            for (int i = 0; i < accumulators.length; i++) {
                accumulators[i].ensureCapacity(groupCount);
                AggregateCall call = call(aggregates.get(i));
                Expr arg = call.argument();
                if (call.second() != null) {
                    accumulators[i].update(groups, rows, arg.evaluate(batch), call.second().evaluate(batch));
                } else {
                    accumulators[i].update(groups, rows, arg == null ? null : arg.evaluate(batch));
                }
            }
        } else {
            int column = keys.length;
            for (Accumulator accumulator : accumulators) {
                accumulator.ensureCapacity(groupCount);
                int width = accumulator.stateTypes().size();
                Col[] states = new Col[width];
                for (int s = 0; s < width; s++) {
                    states[s] = batch.column(column + s);
                }
                column += width;
                accumulator.merge(groups, rows, states);
            }
        }
    }

    private BatchStream emit(GroupTable table, Accumulator[] accumulators, TaskContext context) {
        int total = table.groupCount();
        int batchSize = context.batchSize();
        return new BatchStream() {
            private int next;

            @Override
            public Batch next() {
                if (next >= total) {
                    return null;
                }
                int count = Math.min(batchSize, total - next);
                Col[] out = new Col[schema.size()];
                Col[] keys = table.keyColumns(next, count);
                System.arraycopy(keys, 0, out, 0, keys.length);
                int column = keys.length;
                for (Accumulator a : accumulators) {
                    if (mode == AggregateMode.PARTIAL) {
                        for (Col state : a.states(next, count)) {
                            out[column++] = state;
                        }
                    } else {
                        out[column++] = a.result(next, count);
                    }
                }
                next += count;
                return Batch.of(schema, out, count, context.allocator());
            }

            @Override
            public void close() {
            }
        };
    }
}
