package io.sluice.operators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.join.GraceHashJoin;
import io.sluice.operators.join.HashJoinExec;
import io.sluice.operators.memory.MemoryBudget;
import io.sluice.operators.memory.MemoryLimitException;
import io.sluice.operators.memory.MemoryMetricsSink;
import io.sluice.operators.memory.SpillFiles;
import io.sluice.operators.memory.TaskMemoryPool;
import io.sluice.operators.sort.SortExec;
import io.sluice.operators.window.WindowExec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sort and aggregate under a small task memory: they spill, answer exactly what they answer in
 * memory, leave no spill file and nothing reserved; a join build side that cannot fit fails
 * naming the join.
 */
class SpillingOperatorsTest {
    private static final long SMALL = 2L << 20;

    @TempDir
    Path spillRoot;

    private RootAllocator allocator;
    private MemoryBudget budget;
    private final long[] spills = new long[2];
    private final MemoryMetricsSink sink = new MemoryMetricsSink() {
        @Override
        public void peakMemory(long bytes) {
        }

        @Override
        public void spilled(long bytes, long nanos) {
            spills[0] += bytes;
            spills[1]++;
        }
    };

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator(256L << 20);
        budget = new MemoryBudget("test", SMALL);
    }

    @AfterEach
    void tearDown() throws IOException {
        assertThat(budget.reserved()).isZero();
        assertThat(budget.openPools()).isZero();
        try (Stream<Path> left = Files.walk(spillRoot)) {
            assertThat(left.filter(Files::isRegularFile)).isEmpty();
        }
        allocator.close();
    }

    /** Runs partition 0 of {@code plan} as one task and returns column {@code columns} of each row. */
    private List<long[]> run(ExecutionPlan plan, int... columns) {
        List<long[]> out = new ArrayList<>();
        try (TaskMemoryPool pool = budget.newTaskPool("t");
                SpillFiles files = new SpillFiles(spillRoot.resolve("t"))) {
            TaskContext context = new TaskContext("t", allocator, 8192, Map.of(), () -> false, pool, files, sink);
            try (BatchStream stream = plan.execute(0, context)) {
                Batch batch;
                while ((batch = stream.next()) != null) {
                    try (Batch b = batch) {
                        for (int r = 0; r < b.rowCount(); r++) {
                            long[] row = new long[columns.length];
                            for (int c = 0; c < columns.length; c++) {
                                row[c] = b.column(columns[c]).longs[r];
                            }
                            out.add(row);
                        }
                    }
                }
            }
            assertThat(pool.reserved()).as("operators free what they reserve").isZero();
        }
        return out;
    }

    @Test
    void aSortLargerThanMemorySpillsSortedRunsAndMergesThemStably() {
        int rows = 100_000;
        long distinct = 1000;
        SortExec sort = new SortExec(new GeneratedRowsExec(rows, distinct, ""), List.of(SortKey.desc(new Column("k"))),
                SortExec.NO_FETCH, true);
        List<long[]> out = run(sort, 1, 0);

        assertThat(spills[1]).as("runs written").isGreaterThan(1);
        assertThat(spills[0]).isPositive();
        assertThat(out).hasSize(rows);
        for (int i = 1; i < rows; i++) {
            long[] prev = out.get(i - 1);
            long[] row = out.get(i);
            assertThat(row[0]).isLessThanOrEqualTo(prev[0]);
            if (row[0] == prev[0]) {
                assertThat(row[1]).as("ties keep arrival order").isGreaterThan(prev[1]);
            }
        }
    }

    @Test
    void aFinalAggregateLargerThanMemorySpillsAndMergesEveryGroupOnce() {
        int rows = 120_000;
        long distinct = 50_000;
        ExecutionPlan source = new GeneratedRowsExec(rows, distinct, "");
        List<Expr> aggregates = List.of(new Alias(new AggregateCall(AggregateFunction.SUM, new Column("id")), "total"),
                new Alias(new AggregateCall(AggregateFunction.COUNT_STAR, null), "n"));
        HashAggregateExec partial = HashAggregateExec.partial(source, List.of(new Column("k")), aggregates);
        HashAggregateExec finalPhase = HashAggregateExec.finalPhase(partial, partial);
        List<long[]> out = run(finalPhase, 0, 1, 2);

        assertThat(spills[1]).as("final aggregate runs written").isGreaterThan(0);
        Map<Long, long[]> expected = new HashMap<>();
        for (long id = 0; id < rows; id++) {
            long[] e = expected.computeIfAbsent(GeneratedRowsExec.key(id, distinct), k -> new long[2]);
            e[0] += id;
            e[1]++;
        }
        assertThat(out).hasSize(expected.size());
        for (long[] row : out) {
            assertThat(expected.get(row[0])).as("group %d", row[0]).containsExactly(row[1], row[2]);
        }
    }

    @Test
    void aJoinWhoseBuildSideIsTenTimesTheMemoryRunsAsAGraceHashJoin() {
        ExecutionPlan probe = new GeneratedRowsExec(50_000, 50_000, "l.");
        ExecutionPlan build = new GeneratedRowsExec(250_000, 20_000, "r.");
        HashJoinExec join = new HashJoinExec(probe, build, JoinType.LEFT, List.of(new Column("l.k")),
                List.of(new Column("r.k")), null, HashJoinExec.Mode.PARTITIONED);
        long matched = 0;
        long unmatched = 0;
        try (TaskMemoryPool pool = budget.newTaskPool("t");
                SpillFiles files = new SpillFiles(spillRoot.resolve("t"))) {
            TaskContext context = new TaskContext("t", allocator, 8192, Map.of(), () -> false, pool, files, sink);
            try (BatchStream stream = join.execute(0, context)) {
                Batch batch;
                while ((batch = stream.next()) != null) {
                    try (Batch b = batch) {
                        for (int r = 0; r < b.rowCount(); r++) {
                            long leftKey = b.column("l.k").longs[r];
                            if (b.column("r.id").isNull(r)) {
                                assertThat(leftKey).isGreaterThanOrEqualTo(20_000);
                                unmatched++;
                            } else {
                                assertThat(b.column("r.k").longs[r]).isEqualTo(leftKey);
                                assertThat(b.column("r.s").strings[r]).isEqualTo(GeneratedRowsExec.string(leftKey));
                                matched++;
                            }
                        }
                    }
                }
            }
            assertThat(pool.reserved()).isZero();
        }
        // Probe keys are 0..49,999 once each; build keys 0..19,999 twelve or thirteen times each.
        assertThat(matched).isEqualTo(250_000);
        assertThat(unmatched).isEqualTo(30_000);
        assertThat(spills[1]).as("build and probe partitioned to disk").isEqualTo(2);
    }

    /**
     * Semi and anti joins that build their left (ten times the memory) spill as a Grace hash join
     * too: each partition's left rows meet all their right candidates there, so the matched flags
     * are final per partition; with a residual filter that rejects some key matches.
     */
    @Test
    void joinsThatBuildTheLeftSpillAndFlagEachLeftRowOnce() {
        int leftRows = 250_000;
        int leftKeys = 20_000;
        int rightRows = 10_000;
        Map<Long, Long> rightIdOfKey = new HashMap<>();
        for (long id = 0; id < rightRows; id++) {
            rightIdOfKey.put(GeneratedRowsExec.key(id, rightRows), id);
        }
        java.util.Set<Long> semiIds = new java.util.HashSet<>();
        for (long id = 0; id < leftRows; id++) {
            Long rightId = rightIdOfKey.get(GeneratedRowsExec.key(id, leftKeys));
            if (rightId != null && rightId != id) {
                semiIds.add(id);
            }
        }
        Expr filter = new io.sluice.logical.expr.Binary(io.sluice.common.types.BinaryOp.NOT_EQ, new Column("r.id"),
                new Column("l.id"));
        for (JoinType type : List.of(JoinType.LEFT_SEMI, JoinType.LEFT_ANTI)) {
            HashJoinExec join = new HashJoinExec(new GeneratedRowsExec(leftRows, leftKeys, "l."),
                    new GeneratedRowsExec(rightRows, rightRows, "r."), type, List.of(new Column("l.k")),
                    List.of(new Column("r.k")), filter, HashJoinExec.Mode.PARTITIONED).withLeftBuild();
            long spillsBefore = spills[1];
            List<long[]> out = run(join, 0);
            java.util.Set<Long> ids = new java.util.HashSet<>();
            for (long[] row : out) {
                assertThat(ids.add(row[0])).as("left row %d output once", row[0]).isTrue();
                assertThat(semiIds.contains(row[0])).as("left row %d", row[0]).isEqualTo(type == JoinType.LEFT_SEMI);
            }
            assertThat(out).hasSize(type == JoinType.LEFT_SEMI ? semiIds.size() : leftRows - semiIds.size());
            assertThat(spills[1] - spillsBefore).as("left and right partitioned to disk").isEqualTo(2);
        }
        assertThat(semiIds.size()).isBetween(1, leftRows - 1);
    }

    @Test
    void aGracePartitionThatDoesNotFitIsSplitAgain() {
        // 30,000 keys that all fall in the first split's partition 0: that partition is the whole
        // build side, many times the memory, and only a second split (other hash bits) spreads it
        int distinct = 30_000;
        long[] keys = new long[distinct];
        long[] candidates = new long[8192];
        long[] hashes = new long[candidates.length];
        int found = 0;
        for (long base = 0; found < distinct; base += candidates.length) {
            for (int i = 0; i < candidates.length; i++) {
                candidates[i] = base + i;
            }
            java.util.Arrays.fill(hashes, 0);
            io.sluice.kernels.KeyHash.hashInto(io.sluice.kernels.Col.ofLongs(io.sluice.common.types.DataType.INT64, candidates, null), hashes, hashes.length);
            for (int i = 0; i < candidates.length && found < distinct; i++) {
                if (GraceHashJoin.partitionOf(hashes[i], 0) == 0) {
                    keys[found++] = candidates[i];
                }
            }
        }
        ExecutionPlan build = new GeneratedRowsExec(120_000, distinct, "r.", k -> keys[(int) k]);
        ExecutionPlan probe = new GeneratedRowsExec(distinct, distinct, "l.", k -> keys[(int) k]);
        HashJoinExec join = new HashJoinExec(probe, build, JoinType.INNER, List.of(new Column("l.k")),
                List.of(new Column("r.k")), null, HashJoinExec.Mode.PARTITIONED);
        List<long[]> out = run(join, 1, 4);
        assertThat(out).hasSize(120_000).allSatisfy(row -> assertThat(row[0]).isEqualTo(row[1]));
        // build and probe partitioned once, then partition 0's two files split again
        assertThat(spills[1]).isEqualTo(4);
    }

    @Test
    void aWindowPartitionLargerThanMemorySpillsAndIsComputedFromDisk() {
        // three partitions of 40,000 rows (k = id / 40,000: the input is in window order already),
        // each more than the 2 MiB, ordered by id
        int rows = 120_000;
        long[] partitionOfKey = new long[rows];
        for (int id = 0; id < rows; id++) {
            partitionOfKey[(int) GeneratedRowsExec.key(id, rows)] = id / 40_000;
        }
        List<Expr> partitionBy = List.of(new Column("k"));
        List<SortKey> orderBy = List.of(SortKey.asc(new Column("id")));
        WindowFrame running = WindowCall.defaultFrame(orderBy);
        List<Expr> calls = List.of(
                new Alias(new WindowCall(WindowFunction.ROW_NUMBER, List.of(), partitionBy, orderBy, running), "rn"),
                new Alias(new WindowCall(WindowFunction.DENSE_RANK, List.of(), partitionBy, orderBy, running), "dr"),
                new Alias(new WindowCall(WindowFunction.NTILE, List.of(new io.sluice.logical.expr.Literal(7L, DataType.INT64)),
                        partitionBy, orderBy, running), "nt"),
                new Alias(new WindowCall(WindowFunction.SUM, List.of(new Column("id")), partitionBy, orderBy, running), "sum"),
                new Alias(new WindowCall(WindowFunction.COUNT_STAR, List.of(), partitionBy, orderBy,
                        WindowFrame.WHOLE_PARTITION), "n"),
                new Alias(new WindowCall(WindowFunction.MAX, List.of(new Column("id")), partitionBy, orderBy,
                        WindowFrame.WHOLE_PARTITION), "mx"));
        ExecutionPlan source = new GeneratedRowsExec(rows, rows, "", k -> partitionOfKey[(int) k]);
        List<long[]> out = run(new WindowExec(source, calls), 0, 1, 3, 4, 5, 6, 7, 8);

        Map<Long, List<Long>> ids = new HashMap<>();
        for (long id = 0; id < rows; id++) {
            ids.computeIfAbsent(id / 40_000, k -> new ArrayList<>()).add(id);
        }
        List<List<Long>> expected = new ArrayList<>();
        for (long k = 0; k < 3; k++) {
            List<Long> part = ids.get(k);
            long size = part.size();
            long sum = 0;
            for (int j = 0; j < size; j++) {
                sum += part.get(j);
                long small = size / 7;
                long large = size % 7;
                long tile = j < large * (small + 1) ? 1 + j / (small + 1) : 1 + large + (j - large * (small + 1)) / small;
                expected.add(List.of(part.get(j), k, j + 1L, j + 1L, tile, sum, size, part.get(part.size() - 1)));
            }
        }
        assertThat(out.stream().map(row -> java.util.Arrays.stream(row).boxed().toList()).toList()).isEqualTo(expected);
        assertThat(spills[1]).as("each partition written to disk").isEqualTo(3);
    }

    @Test
    void aJoinPartitionThatCannotFitFailsNamingTheJoin() {
        // One key: every build row lands in one partition, which cannot fit either.
        ExecutionPlan build = new GeneratedRowsExec(250_000, 1, "r.");
        ExecutionPlan probe = new GeneratedRowsExec(10, 10, "l.");
        HashJoinExec join = new HashJoinExec(probe, build, JoinType.LEFT, List.of(new Column("l.k")),
                List.of(new Column("r.k")), null, HashJoinExec.Mode.PARTITIONED);
        assertThatThrownBy(() -> run(join, 0))
                .isInstanceOf(MemoryLimitException.class)
                .hasMessageContaining("HashJoinExec")
                .hasMessageContaining("build side, partition")
                .hasMessageContaining("sluice.worker.memory) is 2.0 MiB");
    }
}
