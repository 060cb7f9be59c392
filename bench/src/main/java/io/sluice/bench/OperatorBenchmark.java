package io.sluice.bench;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.basic.MeasuredExec;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.sort.SortExec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Single-partition operator throughput over in-memory Arrow batches (1M rows of int64 key, int64
 * value, float64), reported as time per row: a filter (also wrapped for EXPLAIN ANALYZE), a
 * two-column hash aggregate (partial phase, {@code groups} distinct keys), a full sort and a top-100.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Dio.netty.noUnsafe=false"})
public class OperatorBenchmark {
    static final int ROWS = 1 << 20;
    static final int BATCH = 8192;
    static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64), new Field("v", DataType.INT64),
            new Field("x", DataType.FLOAT64));

    @Param({"1000", "100000"})
    public int groups;

    private BufferAllocator allocator;
    private Col[][] data;
    /** The same data as Arrow batches, as a scan hands them on: filters then read the vectors in place. */
    private final List<Batch> arrowBatches = new ArrayList<>();
    private final List<VectorSchemaRoot> arrow = new ArrayList<>();

    @Setup(Level.Trial)
    public void setup() {
        allocator = new RootAllocator(4L << 30);
        Random random = new Random(7);
        data = new Col[ROWS / BATCH][];
        for (int b = 0; b < data.length; b++) {
            long[] k = new long[BATCH];
            long[] v = new long[BATCH];
            double[] x = new double[BATCH];
            for (int i = 0; i < BATCH; i++) {
                k[i] = random.nextInt(groups);
                v[i] = random.nextInt(1000);
                x[i] = random.nextDouble();
            }
            data[b] = new Col[] {Col.ofLongs(DataType.INT64, k, null), Col.ofLongs(DataType.INT64, v, null),
                    Col.ofDoubles(x, null)};
            Batch batch = Batch.of(SCHEMA, data[b], BATCH, allocator);
            arrowBatches.add(batch);
            arrow.add(batch.root());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arrowBatches.forEach(Batch::close);
        allocator.close();
    }

    /** Replays the prepared columns as fresh Arrow batches, {@code repeat} times over. */
    record MemorySource(Col[][] data, int repeat) implements ExecutionPlan {
        MemorySource(Col[][] data) {
            this(data, 1);
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public List<ExecutionPlan> children() {
            return List.of();
        }

        @Override
        public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
            return this;
        }

        @Override
        public PlanProperties properties() {
            return PlanProperties.of(new Partitioning.Single());
        }

        @Override
        public String describe() {
            return "MemorySource";
        }

        @Override
        public BatchStream execute(int partition, TaskContext context) {
            return new BatchStream() {
                private int next;

                @Override
                public Batch next() {
                    if (next >= (long) data.length * repeat) {
                        return null;
                    }
                    return Batch.of(SCHEMA, data[next++ % data.length], BATCH, context.allocator());
                }

                @Override
                public void close() {
                }
            };
        }
    }

    private long drain(ExecutionPlan plan) {
        long rows = 0;
        try (BufferAllocator child = allocator.newChildAllocator("bench", 0, 2L << 30);
                BatchStream stream = plan.execute(0, new TaskContext("bench", child, BATCH, Map.of()))) {
            Batch b;
            while ((b = stream.next()) != null) {
                rows += b.rowCount();
                b.close();
            }
        }
        return rows;
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long scanOnly() {
        return drain(new MemorySource(data));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long filter() {
        Expr predicate = new Binary(BinaryOp.AND, new Binary(BinaryOp.GT, new Column("v"), Literal.of(500)),
                new Binary(BinaryOp.LT, new Column("x"), Literal.of(0.5)));
        return drain(new FilterExec(new MemorySource(data), predicate));
    }

    /**
     * A range on one column and a bound on another ({@code 100 <= v < 900 AND x < 0.5}, TPC-H Q6's
     * shape): the range's two comparisons are tested in one pass over the selection.
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long filterRange() {
        Expr predicate = new Binary(BinaryOp.AND, new Binary(BinaryOp.AND, new Binary(BinaryOp.GT_EQ, new Column("v"),
                Literal.of(100)), new Binary(BinaryOp.LT, new Column("v"), Literal.of(900))),
                new Binary(BinaryOp.LT, new Column("x"), Literal.of(0.5)));
        return drain(new FilterExec(new MemorySource(data), predicate));
    }

    /** {@link #filter} over Arrow batches, whose columns the comparisons read in place (as after a scan). */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long filterArrow() {
        Expr predicate = new Binary(BinaryOp.AND, new Binary(BinaryOp.GT, new Column("v"), Literal.of(500)),
                new Binary(BinaryOp.LT, new Column("x"), Literal.of(0.5)));
        return drain(new FilterExec(new ArrowSource(arrow, SCHEMA, new int[] {0, 1, 2}), predicate));
    }

    /** {@link #filterRange} over Arrow batches: the range is one pass over the vector in place. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long filterRangeArrow() {
        Expr predicate = new Binary(BinaryOp.AND, new Binary(BinaryOp.AND, new Binary(BinaryOp.GT_EQ, new Column("v"),
                Literal.of(100)), new Binary(BinaryOp.LT, new Column("v"), Literal.of(900))),
                new Binary(BinaryOp.LT, new Column("x"), Literal.of(0.5)));
        return drain(new FilterExec(new ArrowSource(arrow, SCHEMA, new int[] {0, 1, 2}), predicate));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long hashAggregate() {
        List<Expr> aggs = List.of(new AggregateCall(AggregateFunction.SUM, new Column("v")),
                new AggregateCall(AggregateFunction.COUNT_STAR, null), new AggregateCall(AggregateFunction.AVG, new Column("x")));
        return drain(HashAggregateExec.partial(new MemorySource(data), List.of(new Column("k")), aggs));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long sort() {
        return drain(new SortExec(new MemorySource(data), List.of(SortKey.asc(new Column("k")), SortKey.desc(new Column("x"))),
                SortExec.NO_FETCH, true));
    }

    /** ORDER BY k, x DESC LIMIT 100: the top-k keeps 100 rows plus a batch, whatever the input. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long topK() {
        return drain(new SortExec(new MemorySource(data), List.of(SortKey.asc(new Column("k")), SortKey.desc(new Column("x"))),
                100, true));
    }

    /** The filter as a worker runs it, every operator wrapped for EXPLAIN ANALYZE: the cost of measuring. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long filterMeasured() {
        Expr predicate = new Binary(BinaryOp.AND, new Binary(BinaryOp.GT, new Column("v"), Literal.of(500)),
                new Binary(BinaryOp.LT, new Column("x"), Literal.of(0.5)));
        return drain(MeasuredExec.measure(new FilterExec(new MemorySource(data), predicate)).plan());
    }
}
