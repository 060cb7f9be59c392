package io.sluice.plan.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.operators.JoinTestSupport.Table;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.types.DataType;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A runtime filter never drops a row that has a match (no false negatives), drops NULL keys, and
 * drops most rows without one; over one and two keys, int and bigint keys, NULLs and duplicates.
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

    private static RuntimeFilterExec filter(Table buildSide, List<String> keys) {
        MemorySourceExec in = JoinTestSupport.source(probe, new Partitioning.Unknown(3), row -> Math.floorMod(
                row[2].hashCode(), 3), 1000);
        MemorySourceExec source = JoinTestSupport.source(buildSide, new Partitioning.Broadcast(), row -> 0, 64);
        List<Expr> probeKeys = keys.stream().map(k -> (Expr) new Column("l." + k)).toList();
        List<Expr> buildKeys = keys.stream().map(k -> (Expr) new Column("r." + k)).toList();
        return new RuntimeFilterExec(in, source, probeKeys, buildKeys);
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
}
