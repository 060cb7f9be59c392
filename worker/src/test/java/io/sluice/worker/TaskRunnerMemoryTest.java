package io.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.serialization.Kryos;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.memory.MemoryBudget;
import io.sluice.operators.sort.SortExec;
import io.sluice.shuffle.ShuffleClient;
import io.sluice.shuffle.ShuffleEnvironment;
import io.sluice.shuffle.ShuffleWriterExec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task runner and memory: a sort that spills leaves no spill directory and nothing reserved; a
 * task refused memory is a user error (not retried); an OutOfMemoryError is not swallowed: the
 * worker's fatal-error handler runs and the error goes on.
 */
class TaskRunnerMemoryTest {
    /** These tasks read no shuffle: nobody asks where map outputs are. */
    private static final io.sluice.shuffle.MapOutputLocator NO_READS = (job, shuffle, partition) -> {
        throw new IllegalStateException("a task without shuffle readers asked for map outputs");
    };

    @TempDir
    Path directory;

    private RootAllocator allocator;
    private ShuffleClient client;
    private MemoryBudget budget;
    private final List<Throwable> fatal = new ArrayList<>();
    private TaskRunner runner;

    @BeforeEach
    void start() {
        allocator = new RootAllocator(1L << 30);
        client = new ShuffleClient("test");
        budget = new MemoryBudget("w", 2L << 20);
        ShuffleEnvironment env = new ShuffleEnvironment("w", "127.0.0.1", 1, directory, client);
        runner = new TaskRunner("w", allocator, budget, 1L << 30, directory, env, fatal::add);
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        assertThat(budget.openPools()).isZero();
        assertThat(budget.reserved()).isZero();
        assertThat(allocator.getAllocatedMemory()).isZero();
        try (Stream<Path> entries = Files.list(directory)) {
            assertThat(entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("spill-"))).isEmpty();
        }
        allocator.close();
    }

    private TaskDescription task(ExecutionPlan input) {
        ShuffleWriterExec plan = new ShuffleWriterExec(input, new Partitioning.Single(), "job1-s0");
        return new TaskDescription("job1", "job1-s0-p0-a0", 0, 0, 0, Kryos.serialize(plan));
    }

    @Test
    void aSpillingSortSucceedsAndLeavesNothingBehind() {
        ExecutionPlan sort = new SortExec(new Rows(150_000, "ok"), List.of(SortKey.desc(new Column("v"))),
                SortExec.NO_FETCH, true);
        TaskRunner.Outcome outcome = runner.run(task(sort), () -> false, NO_READS);
        assertThat(outcome.finished().error()).isNull();
        assertThat(outcome.finished().operatorMetrics().spills()[0]).as("the sort's spills").isPositive();
        assertThat(outcome.finished().operatorMetrics().peakMemory()[0]).isPositive();
    }

    @Test
    void refusedMemoryIsAUserErrorNotRetried() {
        TaskRunner.Outcome outcome = runner.run(task(new Rows(10, "memory")), () -> false, NO_READS);
        assertThat(outcome.finished().userError()).isTrue();
        assertThat(outcome.finished().error()).contains("Rows could not reserve");
        assertThat(fatal).isEmpty();
    }

    @Test
    void anOutOfMemoryErrorStopsTheWorkerAndIsNotSwallowed() {
        assertThatThrownBy(() -> runner.run(task(new Rows(10, "oom")), () -> false, NO_READS))
                .isInstanceOf(OutOfMemoryError.class);
        assertThat(fatal).hasSize(1).first().isInstanceOf(OutOfMemoryError.class);
    }

    /** A leaf of {@code rows} rows of one INT64 column {@code v}; mode "memory" or "oom" fails as its name says. */
    record Rows(long rows, String mode) implements ExecutionPlan {
        static final Schema SCHEMA = Schema.of(new Field("v", DataType.INT64));

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
            return PlanProperties.of(new Partitioning.Unknown(1));
        }

        @Override
        public String describe() {
            return "Rows";
        }

        @Override
        public BatchStream execute(int partition, TaskContext context) {
            if (mode.equals("oom")) {
                throw new OutOfMemoryError("Java heap space (test)");
            }
            if (mode.equals("memory")) {
                try (var r = context.reserve("Rows")) {
                    r.grow(1L << 40);
                }
            }
            return new BatchStream() {
                private long next;

                @Override
                public Batch next() {
                    if (next >= rows) {
                        return null;
                    }
                    int n = (int) Math.min(context.batchSize(), rows - next);
                    long[] v = new long[n];
                    for (int i = 0; i < n; i++) {
                        v[i] = ((next + i) * 7919) % 100_003;
                    }
                    next += n;
                    return Batch.of(SCHEMA, new Col[] {Col.ofLongs(DataType.INT64, v, null)}, n, context.allocator());
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
