package io.sluice.operators.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.Partitioning;
import io.sluice.operators.TaskContext;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.join.JoinTestSupport.Table;
import io.sluice.operators.join.JoinTestSupport;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A runtime filter merged from its build tasks' partials never drops a row that has a match (no
 * false negatives), drops NULL keys, and drops most rows without one; over one and two keys, int
 * and bigint keys, NULLs and duplicates. Unbound, it passes everything.
 */
class RuntimeFilterExecTest {
    static JoinTestSupport support;
    static Table probe;
    static Table build;
    static Table emptyBuild;

    @BeforeAll
    static void setUp() throws Exception {
        support = new JoinTestSupport();
        // keys 0..9999 on the probe side, 0..39 on the build side: at most 0.4% of probe rows can match
        probe = JoinTestSupport.table("l", "v", DataType.INT64, 20_000, 10_000, 11, true);
        build = JoinTestSupport.table("r", "w", DataType.INT32, 300, 40, 12, true);
        emptyBuild = new Table("r", build.schema(), List.of());
        support.load(probe, "l");
        support.load(build, "r");
        support.load(emptyBuild, "re");
    }

    @AfterAll
    static void tearDown() throws Exception {
        support.close();
    }

    /**
     * The probe table under a filter bound to the build side's merged filter: each of the build
     * source's partitions runs as a task publishing its partial, as on the workers.
     */
    private static RuntimeFilterExec filter(Table buildSide, List<String> keys) {
        MemorySourceExec in = JoinTestSupport.source(probe, new Partitioning.Unknown(3), row -> Math.floorMod(
                row[2].hashCode(), 3), 1000);
        List<Expr> probeKeys = keys.stream().map(k -> (Expr) new Column("l." + k)).toList();
        List<Expr> buildKeys = keys.stream().map(k -> (Expr) new Column("r." + k)).toList();
        MemorySourceExec buildInput = JoinTestSupport.source(buildSide, new Partitioning.Unknown(2),
                row -> Math.floorMod(row[2] == null ? 0 : row[2].hashCode(), 2), 64);
        RuntimeFilterSourceExec source = new RuntimeFilterSourceExec(buildInput, "rf-test", buildKeys,
                RuntimeFilter.bitsFor(buildSide.rows().size()));
        RuntimeFilter merged = null;
        long rows = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int p = 0; p < 2; p++) {
                TaskContext context = new TaskContext("build-" + p, allocator, 64, Map.of());
                try (BatchStream stream = source.execute(p, context)) {
                    for (Batch b = stream.next(); b != null; b = stream.next()) {
                        rows += b.rowCount();
                        b.close();
                    }
                }
                RuntimeFilter partial = (RuntimeFilter) context.published().get("rf-test");
                merged = merged == null ? partial : merged.merge(partial);
            }
        }
        assertThat(rows).as("the source passes its input through").isEqualTo(buildSide.rows().size());
        return new RuntimeFilterExec(in, "rf-test", probeKeys).bind(merged);
    }

    @Test
    void keepsEveryMatchingRowAndDropsNearlyAllOthers() throws Exception {
        for (List<String> keys : List.of(List.of("k1"), List.of("k1", "k2"))) {
            String on = String.join(" AND ", keys.stream().map(k -> "l." + k + " = r." + k).toList());
            List<List<Object>> kept = support.run(filter(build, keys), 1000);
            List<List<Object>> matching = support.query("SELECT * FROM l WHERE EXISTS (SELECT 1 FROM r WHERE " + on + ")");
            assertThat(kept).as("keys %s", keys).containsAll(matching);
            // matches are at most 0.4% of the rows; false positives are about 1% of the others
            assertThat(kept.size()).as("keys %s", keys).isLessThan(matching.size() + probe.rows().size() / 20);
            assertThat(kept).allSatisfy(row -> assertThat(row.subList(0, keys.size())).doesNotContainNull());
        }
    }

    @Test
    void anEmptyBuildSideDropsEverything() throws Exception {
        assertThat(support.run(filter(emptyBuild, List.of("k1")), 1000)).isEmpty();
    }

    @Test
    void anUnboundFilterPassesEveryRow() throws Exception {
        MemorySourceExec in = JoinTestSupport.source(probe, new Partitioning.Unknown(3), row -> Math.floorMod(
                row[2].hashCode(), 3), 1000);
        assertThat(support.run(new RuntimeFilterExec(in, "rf-x", List.of(new Column("l.k1"))), 1000))
                .hasSize(probe.rows().size());
    }

    @Test
    void aFilterOnKeysGoesBelowProjectionsFiltersAndAggregatesOnThem() {
        MemorySourceExec in = JoinTestSupport.source(probe, new Partitioning.Single(), row -> 0, 1000);
        Expr k1 = new Column("l.k1");
        Expr v = new Column("l.v");
        ProjectionExec renamed = new ProjectionExec(in, List.of(new io.sluice.logical.expr.Alias(k1, "key"),
                new io.sluice.logical.expr.Alias(new io.sluice.logical.expr.Binary(io.sluice.common.types.BinaryOp.ADD, v,
                        io.sluice.logical.expr.Literal.of(1L)), "w")));
        assertThat(renamed.filterKeysOnInput(List.of(new Column("key")))).contains(List.of(k1));
        assertThat(renamed.filterKeysOnInput(List.of(new Column("w")))).as("a computed column").isEmpty();
        FilterExec filtered = new FilterExec(in, new io.sluice.logical.expr.Binary(io.sluice.common.types.BinaryOp.GT, v,
                io.sluice.logical.expr.Literal.of(5L)));
        assertThat(filtered.filterKeysOnInput(List.of(k1))).contains(List.of(k1));
        HashAggregateExec grouped = HashAggregateExec.partial(in, List.of(k1), List.of());
        assertThat(grouped.filterKeysOnInput(List.of(new Column(k1.name())))).contains(List.of(k1));
        assertThat(grouped.filterKeysOnInput(List.of(v))).as("not a group key").isEmpty();
        assertThat(HashAggregateExec.partial(in, List.of(), List.of()).filterKeysOnInput(List.of(k1))).isEmpty();
    }

    @Test
    void partialsOfDifferentSizesDoNotMerge() {
        RuntimeFilter small = new RuntimeFilter(new long[128], true, 0, 0, 0);
        RuntimeFilter large = new RuntimeFilter(new long[256], true, 0, 0, 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> small.merge(large))
                .hasMessageContaining("cannot merge runtime filters of 8192 and 16384 bits");
        assertThat(RuntimeFilter.bitsFor(1_000)).isEqualTo(16_384);
        assertThat(RuntimeFilter.bitsFor(1e12)).isEqualTo(RuntimeFilter.MAX_BITS);
    }
}
