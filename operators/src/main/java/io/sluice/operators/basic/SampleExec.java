package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.IntList;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A uniform random sample of each input partition's sort-key values, for computing range split
 * points ({@link io.sluice.operators.RangeBoundaries}). Partition {@code p} outputs at most
 * {@code maxRows} rows, each row of the input being equally likely to be kept; the columns are the
 * key expressions' values, named by {@link io.sluice.logical.expr.Expr#name()}, then
 * {@link #WEIGHT_COLUMN}: the partition's input rows per sample row, as Spark's
 * {@code RangePartitioner} weighs each partition's sample by the partition's size.
 *
 * <p>Reservoir sampling with geometric skips (Li's "Algorithm L"): after the reservoir is full,
 * random numbers are drawn only for the rows that are kept, O(k log(n / k)) of them, and key
 * values are copied a column at a time per batch. The generator is seeded by the input partition's
 * index, so re-running a partition on the same input yields the same sample.
 *
 * <p>One output partition samples {@code partitionsPerTask} consecutive input partitions, each
 * with its own reservoir and weight, one after the other: the sample is the same whatever the
 * grouping, and a sampling run over many small input partitions (a Parquet row group each) costs
 * a few tasks instead of one task round trip per row group.
 */
public record SampleExec(ExecutionPlan input, List<SortKey> keys, int maxRows, int partitionsPerTask, Schema schema,
        long estimatedRows) implements ExecutionPlan {
    private static final long SEED = 0x5DEECE66DL;

    /**
     * The last output column: how many input rows each sample row of its partition stands for
     * (rows seen / rows kept), so that samples of partitions of different sizes weigh by size.
     */
    public static final String WEIGHT_COLUMN = "__sample_weight";

    public SampleExec {
        requireNonNull(schema, "schema is null");
        requireNonNull(input, "input is null");
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a sample needs a key");
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be positive: " + maxRows);
        }
        if (partitionsPerTask < 1) {
            throw new IllegalArgumentException("partitionsPerTask must be positive: " + partitionsPerTask);
        }
        for (SortKey k : keys) {
            k.expr().type(input.schema());
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public SampleExec(ExecutionPlan input, List<SortKey> keys, int maxRows, int partitionsPerTask, Schema schema) {
        this(input, keys, maxRows, partitionsPerTask, schema, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new SampleExec(input, keys, maxRows, partitionsPerTask, schema, rows);
    }

    /** One output partition per input partition; derives the schema once, here. */
    public SampleExec(ExecutionPlan input, List<SortKey> keys, int maxRows) {
        this(input, keys, maxRows, 1);
    }

    /** Derives the schema once, here. */
    public SampleExec(ExecutionPlan input, List<SortKey> keys, int maxRows, int partitionsPerTask) {
        this(input, keys, maxRows, partitionsPerTask, schemaOf(input, keys));
    }

    private static Schema schemaOf(ExecutionPlan input, List<SortKey> keys) {
        List<Field> fields = new ArrayList<>(keys.size() + 1);
        java.util.Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            Expr key = keys.get(i).expr();
            // ORDER BY k, k DESC samples k twice: the columns are read by position, so any distinct name will do
            String name = names.add(key.name()) ? key.name() : key.name() + "#" + i;
            names.add(name);
            fields.add(new Field(name, key.type(input.schema())));
        }
        fields.add(new Field(WEIGHT_COLUMN, DataType.FLOAT64));
        return new Schema(fields);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (children.size() != 1) {
            throw new IllegalArgumentException("SampleExec takes one child, got " + children.size());
        }
        return new SampleExec(children.get(0), keys, maxRows, partitionsPerTask).withEstimatedRows(estimatedRows);
    }

    /** {@code ceil(input partitions / partitionsPerTask)} partitions, at least one. */
    @Override
    public PlanProperties properties() {
        int inputs = input.properties().partitioning().partitionCount();
        return PlanProperties.of(new Partitioning.Unknown(Math.max(1, (inputs + partitionsPerTask - 1) / partitionsPerTask)));
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.LOWER_EQUAL;
    }

    @Override
    public String describe() {
        return "SampleExec: maxRows=" + maxRows + (partitionsPerTask == 1 ? "" : ", partitionsPerTask=" + partitionsPerTask)
                + ", keys=" + keys;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        requireNonNull(context, "context is null");
        Schema schema = schema();
        int inputs = input.properties().partitioning().partitionCount();
        int from = partition * partitionsPerTask;
        int to = Math.min(inputs, from + partitionsPerTask);
        List<Col[]> pieces = new ArrayList<>();
        for (int p = from; p < to; p++) {
            Col[] piece = sample(p, context);
            if (piece[0].length > 0) {
                pieces.add(piece);
            }
        }
        if (pieces.isEmpty()) {
            return BatchStream.empty();
        }
        Col[] sample = new Col[schema.size()];
        for (int k = 0; k < sample.length; k++) {
            List<Col> parts = new ArrayList<>(pieces.size());
            for (Col[] piece : pieces) {
                parts.add(piece[k]);
            }
            sample[k] = parts.size() == 1 ? parts.get(0) : Col.concat(schema.field(k).type(), parts);
        }
        int rows = sample[0].length;
        int batchSize = context.batchSize();
        return new BatchStream() {
            private int next;

            @Override
            public Batch next() {
                if (next >= rows) {
                    return null;
                }
                int count = Math.min(batchSize, rows - next);
                Col[] out = new Col[sample.length];
                for (int k = 0; k < out.length; k++) {
                    out[k] = sample[k].slice(next, count);
                }
                next += count;
                return Batch.of(schema, out, count, context.allocator());
            }

            @Override
            public void close() {
            }
        };
    }

    /** Input partition {@code partition}'s sample: the key columns, then each row's weight. */
    private Col[] sample(int partition, TaskContext context) {
        Reservoir reservoir = new Reservoir(schema(), maxRows, new SplittableRandom(SEED ^ (partition * 0x9E3779B97F4A7C15L)));
        BoundExprs keyExprs = BoundExprs.ofSortKeys(keys, input.schema());
        try (BatchStream in = input.execute(partition, context)) {
            Batch next;
            while ((next = in.next()) != null) {
                try (Batch batch = next) {
                    if (batch.rowCount() > 0) {
                        reservoir.offer(keyExprs.evaluateAll(batch), batch.rowCount());
                    }
                }
            }
        }
        int rows = reservoir.size();
        Col[] keyColumns = reservoir.columns();
        Col[] sample = java.util.Arrays.copyOf(keyColumns, keyColumns.length + 1);
        double[] weights = new double[rows];
        java.util.Arrays.fill(weights, rows == 0 ? 0 : (double) reservoir.seen() / rows);
        sample[keyColumns.length] = Col.ofDoubles(weights, null);
        return sample;
    }

    /** The k kept rows of key values and the skip state of Algorithm L. */
    private static final class Reservoir {
        private final int capacity;
        private final Col[] slots;
        private final SplittableRandom random;
        private int filled;
        private long seen;
        private double w;
        private long nextKept; // global index of the next row to keep once the reservoir is full

        Reservoir(Schema schema, int capacity, SplittableRandom random) {
            this.capacity = capacity;
            this.random = random;
            this.slots = new Col[schema.size() - 1]; // the weight column is not sampled
            for (int k = 0; k < slots.length; k++) {
                DataType type = schema.field(k).type();
                slots[k] = type.isWideDecimal() ? Col.allocateWide(type, capacity, true) : Col.allocate(type, capacity, true);
            }
            this.w = Math.exp(Math.log(uniform()) / capacity);
            this.nextKept = capacity + skip();
        }

        /** A uniform double in (0, 1]. */
        private double uniform() {
            return 1.0 - random.nextDouble();
        }

        private long skip() {
            double s = Math.floor(Math.log(uniform()) / Math.log1p(-w));
            return s >= (double) (Long.MAX_VALUE >> 2) || Double.isNaN(s) ? Long.MAX_VALUE >> 2 : (long) s;
        }

        void offer(Col[] values, int rows) {
            int row = 0;
            if (filled < capacity) {
                int take = Math.min(capacity - filled, rows);
                int[] from = new int[take];
                int[] to = new int[take];
                for (int i = 0; i < take; i++) {
                    from[i] = i;
                    to[i] = filled + i;
                }
                copy(values, from, to, take);
                filled += take;
                row = take;
            }
            if (filled == capacity) {
                IntList from = new IntList(16);
                IntList to = new IntList(16);
                long end = seen + rows;
                while (nextKept < end) {
                    long local = nextKept - seen;
                    if (local >= row) {
                        from.add((int) local);
                        to.add(random.nextInt(capacity));
                    }
                    w *= Math.exp(Math.log(uniform()) / capacity);
                    nextKept += skip() + 1;
                }
                copy(values, from.array(), to.array(), from.size());
            }
            seen += rows;
        }

        /** Copies rows {@code from[i]} of {@code values} into slots {@code to[i]}, in order, a column at a time. */
        private void copy(Col[] values, int[] from, int[] to, int n) {
            for (int k = 0; k < slots.length; k++) {
                Col src = values[k];
                Col dst = slots[k];
                if (dst.isWide()) {
                    for (int i = 0; i < n; i++) {
                        dst.highs[to[i]] = src.high(from[i]);
                        dst.lows[to[i]] = src.low(from[i]);
                    }
                } else switch (dst.type.kind()) {
                    case FLOAT64 -> { for (int i = 0; i < n; i++) dst.doubles[to[i]] = src.doubles[from[i]]; }
                    case BOOL, NULL -> { for (int i = 0; i < n; i++) dst.bools[to[i]] = src.bools[from[i]]; }
                    case UTF8 -> { for (int i = 0; i < n; i++) dst.strings[to[i]] = src.strings[from[i]]; }
                    case STRUCT, LIST, MAP -> { for (int i = 0; i < n; i++) dst.objects[to[i]] = src.objects[from[i]]; }
                    default -> { for (int i = 0; i < n; i++) dst.longs[to[i]] = src.longs[from[i]]; }
                }
                for (int i = 0; i < n; i++) {
                    dst.nulls[to[i]] = src.isNull(from[i]);
                }
            }
        }

        int size() {
            return filled;
        }

        long seen() {
            return seen;
        }

        Col[] columns() {
            Col[] out = new Col[slots.length];
            for (int k = 0; k < out.length; k++) {
                out[k] = slots[k].slice(0, filled).compacted();
            }
            return out;
        }
    }
}
