package io.sluice.operators.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.InputDistributionRequirements;
import io.sluice.operators.Partitioning;
import io.sluice.operators.SplitPoints;
import io.sluice.operators.join.HashJoinExecTest.Keys;
import io.sluice.operators.join.JoinTestSupport.Table;
import java.util.List;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The merge join against DuckDB, on sorted single partitions and on co-range-partitioned ones. */
class SortMergeJoinExecTest {
    static final List<JoinType> TYPES = List.of(JoinType.INNER, JoinType.LEFT, JoinType.RIGHT, JoinType.FULL,
            JoinType.LEFT_SEMI, JoinType.LEFT_ANTI);

    static JoinTestSupport support;
    static Table l;
    static Table r;
    static Table rEmpty;
    static Table bigL;
    static Table bigR;

    @BeforeAll
    static void setUp() throws Exception {
        support = new JoinTestSupport();
        l = JoinTestSupport.table("l", "v", DataType.INT64, 60, 6, 11, true);
        r = JoinTestSupport.table("r", "w", DataType.INT32, 50, 7, 12, true);
        rEmpty = new Table("r", r.schema(), List.of());
        bigL = JoinTestSupport.table("l", "v", DataType.INT64, 1500, 40, 13, true);
        bigR = JoinTestSupport.table("r", "w", DataType.INT64, 1200, 50, 14, true);
        support.load(l, "l");
        support.load(r, "r");
        support.load(rEmpty, "re");
        support.load(bigL, "bl");
        support.load(bigR, "br");
    }

    @AfterAll
    static void tearDown() throws Exception {
        support.close();
    }

    static int[] keyColumns(Keys keys) {
        return keys.columns().stream().mapToInt(c -> c.equals("k1") ? 0 : 1).toArray();
    }

    static List<SortKey> sortKeys(Keys keys, String table) {
        return keys.exprs(table).stream().map(SortKey::asc).toList();
    }

    /** Both inputs in one partition each, sorted on the keys. */
    static SortMergeJoinExec single(JoinType type, Keys keys, boolean filter, Table left, Table right, int batchRows) {
        ExecutionPlan ls = JoinTestSupport.sortedSource(left, new Partitioning.Single(), row -> 0, batchRows,
                sortKeys(keys, "l"), keyColumns(keys));
        ExecutionPlan rs = JoinTestSupport.sortedSource(right, new Partitioning.Single(), row -> 0, batchRows,
                sortKeys(keys, "r"), keyColumns(keys));
        return new SortMergeJoinExec(ls, rs, type, keys.exprs("l"), keys.exprs("r"),
                filter ? HashJoinExecTest.FILTER : null);
    }

    /**
     * Three range partitions on the first key column (boundaries 1 and 3; NULLs sort last so they
     * land in the last partition), each sorted on all the keys.
     */
    static SortMergeJoinExec ranged(JoinType type, Keys keys, boolean filter, Table left, Table right, int batchRows) {
        int column = keyColumns(keys)[0];
        List<List<Object>> boundaries = column == 0
                ? List.of(List.of(1L), List.of(3L))
                : List.of(List.of("a"), List.of("ab"));
        ToIntFunction<Object[]> partitionOf = row -> {
            Object v = row[column];
            if (v == null) {
                return 2;
            }
            int p = 0;
            for (List<Object> b : boundaries) {
                @SuppressWarnings("unchecked")
                Comparable<Object> c = (Comparable<Object>) v;
                if (c.compareTo(b.get(0)) > 0) {
                    p++;
                }
            }
            return p;
        };
        SplitPoints splits = new SplitPoints("join-1", boundaries);
        String name = keys.columns().get(0);
        ExecutionPlan ls = JoinTestSupport.sortedSource(left, new Partitioning.Range(
                List.of(SortKey.asc(new Column("l." + name))), splits, 3), partitionOf, batchRows,
                sortKeys(keys, "l"), keyColumns(keys));
        ExecutionPlan rs = JoinTestSupport.sortedSource(right, new Partitioning.Range(
                List.of(SortKey.asc(new Column("r." + name))), splits, 3), partitionOf, batchRows,
                sortKeys(keys, "r"), keyColumns(keys));
        return new SortMergeJoinExec(ls, rs, type, keys.exprs("l"), keys.exprs("r"),
                filter ? HashJoinExecTest.FILTER : null);
    }

    @Test
    void everyTypeAndKeyShapeMatchesDuckDb() throws Exception {
        for (JoinType type : TYPES) {
            for (Keys keys : List.of(HashJoinExecTest.K1, HashJoinExecTest.K12, HashJoinExecTest.K2)) {
                for (boolean filter : new boolean[] {false, true}) {
                    for (String rightName : List.of("r", "re")) {
                        Table right = rightName.equals("r") ? r : rEmpty;
                        String sql = HashJoinExecTest.sql(type, keys, filter, "l", rightName);
                        List<List<Object>> expected = support.query(sql);
                        for (int batchRows : new int[] {1, 3, 100}) {
                            SortMergeJoinExec single = single(type, keys, filter, l, right, batchRows);
                            assertThat(support.run(single, 4)).as("%s rows=%d\n%s", single.describe(), batchRows, sql)
                                    .isEqualTo(expected);
                        }
                        SortMergeJoinExec ranged = ranged(type, keys, filter, l, right, 3);
                        assertThat(support.run(ranged, 5)).as("ranged %s\n%s", ranged.describe(), sql)
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void largerInputsWithKeyGroupsSpanningBatches() throws Exception {
        for (JoinType type : TYPES) {
            for (boolean filter : new boolean[] {false, true}) {
                SortMergeJoinExec join = ranged(type, HashJoinExecTest.K12, filter, bigL, bigR, 7);
                String sql = HashJoinExecTest.sql(type, HashJoinExecTest.K12, filter, "bl", "br");
                assertThat(support.run(join, 64)).as("%s", join.describe()).isEqualTo(support.query(sql));
            }
        }
    }

    @Test
    void contractAnswers() {
        SortMergeJoinExec join = ranged(JoinType.INNER, HashJoinExecTest.K1, false, l, r, 3);
        List<SortKey> lk = List.of(SortKey.asc(new Column("l.k1")));
        List<SortKey> rk = List.of(SortKey.asc(new Column("r.k1")));
        assertThat(join.requiredInputDistribution()).containsExactly(new Distribution.RangePartitioned(lk),
                new Distribution.RangePartitioned(rk));
        assertThat(join.inputDistributionRequirements()).isEqualTo(InputDistributionRequirements.CO_PARTITIONED);
        assertThat(join.requiredInputOrdering()).containsExactly(lk, rk);
        assertThat(join.maintainsInputOrder()).containsExactly(false, false);
        assertThat(join.properties().partitioning()).isEqualTo(join.left().properties().partitioning());
        // an inner merge emits key groups in key order, which a sorted aggregate above can use
        assertThat(join.properties().ordering()).isEqualTo(lk);
        int key = join.schema().names().indexOf("l.k1");
        for (int p = 0; p < 3; p++) {
            List<Long> keys = support.runPartition(join, p, 5).stream().map(row -> (Long) row.get(key)).toList();
            assertThat(keys).as("partition " + p).isSorted();
        }
        assertThat(ranged(JoinType.LEFT, HashJoinExecTest.K1, false, l, r, 3).properties().ordering()).isEmpty();
        assertThat(ranged(JoinType.RIGHT, HashJoinExecTest.K1, false, l, r, 3).properties().partitioning())
                .isEqualTo(join.right().properties().partitioning());
        assertThat(ranged(JoinType.FULL, HashJoinExecTest.K1, false, l, r, 3).properties().partitioning())
                .isEqualTo(new Partitioning.Unknown(3));
        assertThat(join.describe()).isEqualTo("SortMergeJoinExec: type=inner, on=[(l.k1, r.k1)]");
        assertThat(join.withNewChildren(join.children())).isEqualTo(join);
    }

    @Test
    void rejectsNotInAndUnsortedOrMisplacedInputs() {
        ExecutionPlan ls = JoinTestSupport.source(l, new Partitioning.Single(), row -> 0, 4);
        ExecutionPlan rs = JoinTestSupport.source(r, new Partitioning.Single(), row -> 0, 4);
        List<Expr> lk = HashJoinExecTest.K1.exprs("l");
        List<Expr> rk = HashJoinExecTest.K1.exprs("r");
        assertThatThrownBy(() -> new SortMergeJoinExec(ls, rs, JoinType.LEFT_ANTI_NULL_AWARE, lk, rk, null))
                .hasMessageContaining("does not support LEFT_ANTI_NULL_AWARE");
        SortMergeJoinExec unsorted = new SortMergeJoinExec(ls, rs, JoinType.INNER, lk, rk, null);
        assertThatThrownBy(() -> support.run(unsorted, 4)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not by [l.k1 ASC NULLS LAST]");
        ExecutionPlan hashed = JoinTestSupport.source(l, new Partitioning.Hash(lk, 2), HashJoinExecTest.byColumn(0, 2), 4);
        ExecutionPlan hashedR = JoinTestSupport.source(r, new Partitioning.Hash(rk, 2), HashJoinExecTest.byColumn(0, 2), 4);
        SortMergeJoinExec misplaced = new SortMergeJoinExec(hashed, hashedR, JoinType.INNER, lk, rk, null);
        assertThatThrownBy(() -> support.run(misplaced, 4)).hasMessageContaining("does not satisfy range_partitioned");
    }
}
