package io.sluice.operators.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.JoinMark;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.InputDistributionRequirements;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.Partitioning;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.join.HashJoinExec.Mode;
import io.sluice.operators.join.JoinTestSupport.Table;
import io.sluice.operators.sort.SortExec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every join type, mode and key shape against DuckDB on small tables with NULL and duplicate keys. */
class HashJoinExecTest {
    static JoinTestSupport support;
    static Table l;
    static Table r;
    static Table rNoNullKeys;
    static Table rEmpty;
    static Table bigL;
    static Table bigR;

    static final Expr FILTER = new Binary(BinaryOp.GT, new Column("r.w"), new Column("l.v"));
    /** The mark join's condition: {@code l.v <= ANY (SELECT r.w ...)}, NULL when either side is NULL. */
    static final JoinMark MARK = new JoinMark("mark", new Binary(BinaryOp.LT_EQ, new Column("l.v"), new Column("r.w")));

    /** A key shape: our key expressions, DuckDB's ON text, and the column to partition by. */
    record Keys(String name, List<String> columns, int partitionColumn) {
        List<Expr> exprs(String table) {
            return columns.stream().map(c -> (Expr) new Column(table + "." + c)).toList();
        }

        String on() {
            return String.join(" AND ", columns.stream().map(c -> "l." + c + " = r." + c).toList());
        }
    }

    static final Keys K1 = new Keys("k1", List.of("k1"), 0);
    static final Keys K12 = new Keys("k1,k2", List.of("k1", "k2"), 0);
    static final Keys K2 = new Keys("k2", List.of("k2"), 1);

    @BeforeAll
    static void setUp() throws Exception {
        support = new JoinTestSupport();
        l = JoinTestSupport.table("l", "v", DataType.INT64, 60, 6, 1, true);
        r = JoinTestSupport.table("r", "w", DataType.INT32, 50, 7, 2, true);
        rNoNullKeys = new Table("r", r.schema(), r.rows().stream().filter(row -> row[0] != null && row[1] != null).toList());
        rEmpty = new Table("r", r.schema(), List.of());
        bigL = JoinTestSupport.table("l", "v", DataType.INT64, 1500, 40, 3, true);
        bigR = JoinTestSupport.table("r", "w", DataType.INT64, 1200, 50, 4, true);
        support.load(l, "l");
        support.load(r, "r");
        support.load(rNoNullKeys, "rn");
        support.load(rEmpty, "re");
        support.load(bigL, "bl");
        support.load(bigR, "br");
    }

    @AfterAll
    static void tearDown() throws Exception {
        support.close();
    }

    static String sql(JoinType type, Keys keys, boolean filter, String lName, String rName) {
        String on = keys.on() + (filter ? " AND r.w > l.v" : "");
        String from = " FROM " + lName + " l ";
        String rt = rName + " r";
        return switch (type) {
            case INNER -> "SELECT l.*, r.*" + from + "JOIN " + rt + " ON " + on;
            case LEFT -> "SELECT l.*, r.*" + from + "LEFT JOIN " + rt + " ON " + on;
            case RIGHT -> "SELECT l.*, r.*" + from + "RIGHT JOIN " + rt + " ON " + on;
            case FULL -> "SELECT l.*, r.*" + from + "FULL JOIN " + rt + " ON " + on;
            case LEFT_SEMI -> "SELECT l.*" + from + "WHERE EXISTS (SELECT 1 FROM " + rt + " WHERE " + on + ")";
            case LEFT_ANTI -> "SELECT l.*" + from + "WHERE NOT EXISTS (SELECT 1 FROM " + rt + " WHERE " + on + ")";
            case LEFT_ANTI_NULL_AWARE -> "SELECT l.*" + from + "WHERE l." + keys.columns().get(0) + " NOT IN (SELECT r."
                    + keys.columns().get(0) + " FROM " + rt + (filter ? " WHERE r.w > l.v" : "") + ")";
            case LEFT_MARK -> "SELECT l.*, l.v <= ANY (SELECT r.w FROM " + rt + " WHERE " + on + ")" + from;
        };
    }

    static int hashOf(Object value, int n) {
        return value == null ? 0 : Math.floorMod(value.hashCode() * 31 + 7, n);
    }

    static ToIntFunction<Object[]> byColumn(int column, int n) {
        return row -> hashOf(row[column], n);
    }

    static ToIntFunction<Object[]> anyRow(int n) {
        return row -> Math.floorMod(Arrays.hashCode(row), n);
    }

    /** The join in {@code mode} over sources laid out as the mode requires. */
    static HashJoinExec join(JoinType type, Keys keys, boolean filter, Mode mode, Table left, Table right, int n,
            int batchRows) {
        ExecutionPlan ls;
        ExecutionPlan rs;
        switch (mode) {
            case PARTITIONED -> {
                if (type == JoinType.LEFT_ANTI_NULL_AWARE) {
                    ls = JoinTestSupport.source(left, new Partitioning.Single(), row -> 0, batchRows);
                    rs = JoinTestSupport.source(right, new Partitioning.Single(), row -> 0, batchRows);
                } else {
                    String partitionName = keys.partitionColumn() == 0 ? "k1" : "k2";
                    ls = JoinTestSupport.source(left, new Partitioning.Hash(List.of(new Column("l." + partitionName)), n),
                            byColumn(keys.partitionColumn(), n), batchRows);
                    rs = JoinTestSupport.source(right, new Partitioning.Hash(List.of(new Column("r." + partitionName)), n),
                            byColumn(keys.partitionColumn(), n), batchRows);
                }
            }
            case COLLECT_LEFT -> {
                ls = JoinTestSupport.source(left, new Partitioning.Broadcast(), row -> 0, batchRows);
                rs = JoinTestSupport.source(right, new Partitioning.RoundRobin(n), anyRow(n), batchRows);
            }
            default -> {
                ls = JoinTestSupport.source(left, new Partitioning.Unknown(n), anyRow(n), batchRows);
                rs = JoinTestSupport.source(right, new Partitioning.Broadcast(), row -> 0, batchRows);
            }
        }
        return new HashJoinExec(ls, rs, type, keys.exprs("l"), keys.exprs("r"), filter ? FILTER : null,
                type == JoinType.LEFT_MARK ? MARK : null, mode);
    }

    static boolean valid(JoinType type, Mode mode) {
        return switch (mode) {
            case PARTITIONED -> true;
            case COLLECT_LEFT -> type == JoinType.INNER || type == JoinType.RIGHT;
            case COLLECT_RIGHT -> type != JoinType.RIGHT && type != JoinType.FULL;
        };
    }

    @Test
    void everyTypeModeAndKeyShapeMatchesDuckDb() throws Exception {
        int checked = 0;
        for (JoinType type : JoinType.values()) {
            for (Keys keys : List.of(K1, K12, K2)) {
                if (type == JoinType.LEFT_ANTI_NULL_AWARE && keys.columns().size() > 1) {
                    continue;
                }
                for (boolean filter : new boolean[] {false, true}) {
                    for (Mode mode : Mode.values()) {
                        if (!valid(type, mode)) {
                            continue;
                        }
                        List<Object[]> variants = new ArrayList<>();
                        variants.add(new Object[] {r, "r"});
                        if (type == JoinType.LEFT_ANTI_NULL_AWARE || type == JoinType.RIGHT || type == JoinType.INNER
                                || type == JoinType.LEFT_MARK) {
                            variants.add(new Object[] {rNoNullKeys, "rn"});
                            variants.add(new Object[] {rEmpty, "re"});
                        }
                        for (Object[] variant : variants) {
                            Table right = (Table) variant[0];
                            String expectedSql = sql(type, keys, filter, "l", (String) variant[1]);
                            HashJoinExec join = join(type, keys, filter, mode, l, right, 3, 4);
                            List<List<Object>> expected = support.query(expectedSql);
                            assertThat(support.run(join, 4)).as("%s\n%s", join.describe(), expectedSql)
                                    .isEqualTo(expected);
                            checked++;
                        }
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(80);
    }

    @Test
    void largerInputsWithManyDuplicatesAcrossBatches() throws Exception {
        for (JoinType type : JoinType.values()) {
            Keys keys = type == JoinType.LEFT_ANTI_NULL_AWARE ? K1 : K12;
            for (boolean filter : new boolean[] {false, true}) {
                HashJoinExec join = join(type, keys, filter, Mode.PARTITIONED, bigL, bigR, 4, 100);
                String expectedSql = sql(type, keys, filter, "bl", "br");
                assertThat(support.run(join, 64)).as("%s", join.describe()).isEqualTo(support.query(expectedSql));
            }
        }
    }

    /**
     * Sources handing out Arrow batches (as a scan or shuffle fetch does): build strings are held
     * as bytes and probe columns gathered from the probe vectors, or shared when every probe row
     * of a batch matches once (a key/foreign-key join: the build key is unique), with multi-byte
     * strings and NULLs on both sides.
     */
    @Test
    void arrowBatchesAndKeyForeignKeyJoinsMatchDuckDb() throws Exception {
        String[] names = {"x", "größe", "", "日本", "🙂!"};
        Schema ls = Schema.of(new Field("l.k1", DataType.INT32), new Field("l.k2", DataType.UTF8),
                new Field("l.v", DataType.INT64));
        Schema rs = Schema.of(new Field("r.k1", DataType.INT32), new Field("r.k2", DataType.UTF8),
                new Field("r.w", DataType.INT64));
        List<Object[]> dRows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            dRows.add(new Object[] {(long) i, i % 7 == 3 ? null : names[i % 5] + i, i % 9 == 4 ? null : (long) i * 3});
        }
        List<Object[]> tRows = new ArrayList<>();
        for (int j = 0; j < 160; j++) {
            tRows.add(new Object[] {(long) ((j * 7) % 40), j % 11 == 5 ? null : names[j % 4] + "-" + j, (long) j});
        }
        Table d = new Table("l", ls, dRows);
        Table t = new Table("r", rs, tRows);
        List<Object[]> tMissRows = new ArrayList<>(tRows);
        tMissRows.add(new Object[] {null, "n", 1L});
        tMissRows.add(new Object[] {99L, "m", 2L});
        Table tMiss = new Table("r", rs, tMissRows);
        support.load(d, "fd");
        support.load(t, "ft");
        support.load(tMiss, "ftm");
        int checked = 0;
        for (JoinType type : List.of(JoinType.INNER, JoinType.LEFT, JoinType.RIGHT, JoinType.FULL, JoinType.LEFT_SEMI,
                JoinType.LEFT_ANTI)) {
            for (boolean filter : new boolean[] {false, true}) {
                for (Object[] probe : List.of(new Object[] {t, "ft"}, new Object[] {tMiss, "ftm"})) {
                    ExecutionPlan left = JoinTestSupport.source(d, new Partitioning.Single(), row -> 0, 16)
                            .withArrowBatches();
                    ExecutionPlan right = JoinTestSupport.source((Table) probe[0], new Partitioning.Single(), row -> 0,
                            16).withArrowBatches();
                    HashJoinExec join = new HashJoinExec(left, right, type, K1.exprs("l"), K1.exprs("r"),
                            filter ? FILTER : null, null, Mode.PARTITIONED);
                    String expectedSql = sql(type, K1, filter, "fd", (String) probe[1]);
                    assertThat(support.run(join, 16)).as("%s\n%s", join.describe(), expectedSql)
                            .isEqualTo(support.query(expectedSql));
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(24);
    }

    /**
     * A single integer key probed in place from Arrow vectors, on a hash table (sparse keys, not a
     * direct array) and on a direct array, with duplicate build keys, NULL probe keys whose slots
     * hold values that are build keys, and misses: the same rows as DuckDB.
     */
    @Test
    void aKeyProbedInPlaceFromArrowMatchesDuckDb() throws Exception {
        Schema ls = Schema.of(new Field("l.k1", DataType.INT64), new Field("l.v", DataType.INT64));
        Schema rs = Schema.of(new Field("r.k1", DataType.INT64), new Field("r.w", DataType.INT64));
        int checked = 0;
        for (long stride : new long[] {1_000_003L, 1L}) {
            List<Object[]> buildRows = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                buildRows.add(new Object[] {i % 13 == 6 ? null : (i % 25) * stride, (long) i}); // keys twice
            }
            List<Object[]> probeRows = new ArrayList<>();
            for (int j = 0; j < 200; j++) {
                probeRows.add(new Object[] {j % 9 == 2 ? null : (j % 30) * stride, (long) j}); // 25..29 miss
            }
            support.load(new Table("l", ls, buildRows), "pb" + stride);
            support.load(new Table("r", rs, probeRows), "pp" + stride);
            for (JoinType type : List.of(JoinType.INNER, JoinType.LEFT, JoinType.LEFT_SEMI, JoinType.LEFT_ANTI)) {
                // the probe is the right side; its batches are Arrow with values left under NULL slots
                ExecutionPlan left = JoinTestSupport.source(new Table("l", ls, buildRows), new Partitioning.Single(),
                        row -> 0, 16);
                ExecutionPlan right = JoinTestSupport.source(new Table("r", rs, probeRows), new Partitioning.Single(),
                        row -> 0, 16).withArrowValuesUnderNulls();
                HashJoinExec join = new HashJoinExec(right, left, type, K1.exprs("r"), K1.exprs("l"), null, null,
                        Mode.PARTITIONED);
                String expectedSql = sql(type, K1, false, "pp" + stride, "pb" + stride);
                assertThat(support.run(join, 16)).as("%s\n%s", join.describe(), expectedSql)
                        .isEqualTo(support.query(expectedSql));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(8);
    }

    /**
     * NOT IN with a filter over a unique build key: a NULL probe key has every build row as a
     * candidate, formed in chunks of the batch size, and the one build row that passes the filter is
     * the last one, alone in the last chunk (it must be that row, not the first build row again).
     */
    @Test
    void notInWithAFilterChecksTheLastCandidateOfALongRun() throws Exception {
        Schema ls = Schema.of(new Field("l.k1", DataType.INT32), new Field("l.v", DataType.INT64));
        Schema rs = Schema.of(new Field("r.k1", DataType.INT32), new Field("r.w", DataType.INT64));
        List<Object[]> rightRows = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            rightRows.add(new Object[] {(long) i, i == 8 ? 100L : 0L});
        }
        Table left = new Table("l", ls, List.<Object[]>of(new Object[] {null, 50L}, new Object[] {20L, 50L},
                new Object[] {8L, 50L}));
        Table right = new Table("r", rs, rightRows);
        support.load(left, "nl");
        support.load(right, "nr");
        for (Mode mode : List.of(Mode.COLLECT_RIGHT, Mode.PARTITIONED)) {
            HashJoinExec join = join(JoinType.LEFT_ANTI_NULL_AWARE, K1, true, mode, left, right, 1, 4);
            String expectedSql = sql(JoinType.LEFT_ANTI_NULL_AWARE, K1, true, "nl", "nr");
            List<List<Object>> expected = support.query(expectedSql);
            assertThat(expected).as("DuckDB keeps only the key 20").hasSize(1);
            assertThat(support.run(join, 4)).as("%s\n%s", join.describe(), expectedSql).isEqualTo(expected);
        }
    }

    @Test
    void notInWithNullKeysOnlyInTheLeft() throws Exception {
        // NULL left keys survive only an empty right side; others survive when absent from the right.
        for (Table right : List.of(rNoNullKeys, rEmpty)) {
            HashJoinExec join = join(JoinType.LEFT_ANTI_NULL_AWARE, K1, false, Mode.COLLECT_RIGHT, l, right, 2, 5);
            List<List<Object>> rows = support.run(join, 8);
            boolean anyNullKept = rows.stream().anyMatch(row -> row.get(0) == null);
            assertThat(anyNullKept).isEqualTo(right.rows().isEmpty());
        }
        HashJoinExec withNullRight = join(JoinType.LEFT_ANTI_NULL_AWARE, K1, false, Mode.COLLECT_RIGHT, l, r, 2, 5);
        assertThat(support.run(withNullRight, 8)).isEmpty();
    }

    @Test
    void contractAnswers() {
        HashJoinExec partitioned = join(JoinType.INNER, K1, false, Mode.PARTITIONED, l, r, 3, 4);
        assertThat(partitioned.requiredInputDistribution()).containsExactly(
                new Distribution.KeyPartitioned(List.of(new Column("l.k1"))),
                new Distribution.KeyPartitioned(List.of(new Column("r.k1"))));
        assertThat(partitioned.inputDistributionRequirements()).isEqualTo(InputDistributionRequirements.CO_PARTITIONED);
        assertThat(partitioned.properties().partitioning())
                .isEqualTo(new Partitioning.Hash(List.of(new Column("r.k1")), 3));
        assertThat(partitioned.properties().ordering()).isEmpty();
        assertThat(partitioned.schema().names()).containsExactly("l.k1", "l.k2", "l.v", "r.k1", "r.k2", "r.w");
        assertThat(partitioned.describe())
                .isEqualTo("HashJoinExec: mode=partitioned, type=inner, on=[(l.k1, r.k1)], build=left");

        HashJoinExec left = join(JoinType.LEFT, K1, true, Mode.PARTITIONED, l, r, 3, 4);
        assertThat(left.buildsLeft()).isFalse();
        assertThat(left.properties().partitioning()).isEqualTo(new Partitioning.Hash(List.of(new Column("l.k1")), 3));
        HashJoinExec full = join(JoinType.FULL, K1, false, Mode.PARTITIONED, l, r, 3, 4);
        assertThat(full.properties().partitioning()).isEqualTo(new Partitioning.Unknown(3));

        HashJoinExec semi = join(JoinType.LEFT_SEMI, K1, false, Mode.COLLECT_RIGHT, l, r, 3, 4);
        assertThat(semi.schema().names()).containsExactly("l.k1", "l.k2", "l.v");
        assertThat(semi.requiredInputDistribution()).containsExactly(Distribution.UNSPECIFIED, Distribution.BROADCAST);
        assertThat(semi.inputDistributionRequirements()).isEqualTo(InputDistributionRequirements.INDEPENDENT);
        assertThat(semi.properties().partitioning()).isEqualTo(new Partitioning.Unknown(3));

        HashJoinExec broadcast = join(JoinType.RIGHT, K1, false, Mode.COLLECT_LEFT, l, r, 3, 4);
        assertThat(broadcast.requiredInputDistribution()).containsExactly(Distribution.BROADCAST, Distribution.UNSPECIFIED);
        assertThat(broadcast.properties().partitioning()).isEqualTo(new Partitioning.RoundRobin(3));

        HashJoinExec notIn = join(JoinType.LEFT_ANTI_NULL_AWARE, K1, false, Mode.PARTITIONED, l, r, 3, 4);
        assertThat(notIn.requiredInputDistribution()).containsExactly(Distribution.SINGLE, Distribution.SINGLE);

        ExecutionPlan copy = partitioned.withNewChildren(partitioned.children());
        assertThat(copy).isEqualTo(partitioned);
    }

    /** Schemas and properties are derived at construction: every call returns the same instance. */
    @Test
    void schemaAndPropertiesAreComputedOnce() {
        ExecutionPlan ls = JoinTestSupport.source(l, new Partitioning.Single(), row -> 0, 4);
        ExecutionPlan rs = JoinTestSupport.source(r, new Partitioning.Single(), row -> 0, 4);
        HashJoinExec hash = new HashJoinExec(ls, rs, JoinType.INNER, K1.exprs("l"), K1.exprs("r"), null, Mode.PARTITIONED);
        SortMergeJoinExec merge = new SortMergeJoinExec(ls, rs, JoinType.FULL, K1.exprs("l"), K1.exprs("r"), null);
        SortExec sort = new SortExec(hash, List.of(io.sluice.logical.expr.SortKey.asc(new Column("l.k1"))), 5, false);
        FilterExec filter = new FilterExec(merge, FILTER);
        for (ExecutionPlan plan : List.of(hash, merge, sort, filter)) {
            assertThat(plan.schema()).as(plan.describe()).isSameAs(plan.schema());
            assertThat(plan.properties()).as(plan.describe()).isSameAs(plan.properties());
        }
        assertThat(hash.schema().names()).containsExactlyElementsOf(
                java.util.stream.Stream.concat(ls.schema().names().stream(), rs.schema().names().stream()).toList());
    }

    /**
     * LEFT, LEFT_SEMI and LEFT_ANTI building the left (the planner's choice for a small left):
     * against the default build side and DuckDB, with NULL and duplicate keys on both sides, a
     * residual filter, an empty right and an empty left, heap and Arrow batches, and batches
     * smaller than the key groups.
     */
    @Test
    void buildingTheLeftMatchesTheDefaultBuildSideAndDuckDb() throws Exception {
        Table lEmpty = new Table("l", l.schema(), List.of());
        support.load(lEmpty, "lbe");
        record Case(Table left, String leftName, Table right, String rightName, int batchRows) {
        }
        List<Case> cases = List.of(new Case(l, "l", r, "r", 4), new Case(l, "l", rNoNullKeys, "rn", 4),
                new Case(l, "l", rEmpty, "re", 4), new Case(lEmpty, "lbe", r, "r", 4),
                new Case(bigL, "bl", bigR, "br", 100));
        int checked = 0;
        for (JoinType type : List.of(JoinType.LEFT, JoinType.LEFT_SEMI, JoinType.LEFT_ANTI)) {
            for (Keys keys : List.of(K1, K12, K2)) {
                for (boolean filter : new boolean[] {false, true}) {
                    for (Case c : cases) {
                        for (boolean arrow : new boolean[] {false, true}) {
                            HashJoinExec byDefault = join(type, keys, filter, Mode.PARTITIONED, c.left(), c.right(), 3,
                                    c.batchRows());
                            if (arrow) {
                                byDefault = (HashJoinExec) byDefault.withNewChildren(List.of(
                                        ((MemorySourceExec) byDefault.left()).withArrowBatches(),
                                        ((MemorySourceExec) byDefault.right()).withArrowBatches()));
                            }
                            HashJoinExec leftBuilt = byDefault.withLeftBuild();
                            assertThat(leftBuilt.buildsLeft()).isTrue();
                            assertThat(leftBuilt.describe()).endsWith(", build=left");
                            assertThat(leftBuilt.properties()).isEqualTo(byDefault.properties());
                            assertThat(leftBuilt.withNewChildren(leftBuilt.children())).isEqualTo(leftBuilt);
                            String expectedSql = sql(type, keys, filter, c.leftName(), c.rightName());
                            List<List<Object>> expected = support.query(expectedSql);
                            assertThat(support.run(byDefault, 4)).as("%s\n%s", byDefault.describe(), expectedSql)
                                    .isEqualTo(expected);
                            assertThat(support.run(leftBuilt, 4)).as("%s\n%s", leftBuilt.describe(), expectedSql)
                                    .isEqualTo(expected);
                            checked++;
                        }
                    }
                }
            }
        }
        assertThat(checked).isEqualTo(3 * 3 * 2 * 5 * 2);
        ExecutionPlan ls = JoinTestSupport.source(l, new Partitioning.Single(), row -> 0, 4);
        ExecutionPlan rs = JoinTestSupport.source(r, new Partitioning.Single(), row -> 0, 4);
        for (JoinType type : List.of(JoinType.INNER, JoinType.RIGHT, JoinType.FULL, JoinType.LEFT_ANTI_NULL_AWARE,
                JoinType.LEFT_MARK)) {
            HashJoinExec join = new HashJoinExec(ls, rs, type, K1.exprs("l"), K1.exprs("r"), null,
                    type == JoinType.LEFT_MARK ? MARK : null, Mode.PARTITIONED);
            assertThatThrownBy(join::withLeftBuild).hasMessageContaining("building the left is a choice only");
        }
        HashJoinExec broadcastRight = join(JoinType.LEFT_SEMI, K1, false, Mode.COLLECT_RIGHT, l, r, 3, 4);
        assertThatThrownBy(broadcastRight::withLeftBuild).hasMessageContaining("not COLLECT_RIGHT LEFT_SEMI");
    }

    @Test
    void invalidCombinationsAreRejected() {
        ExecutionPlan ls = JoinTestSupport.source(l, new Partitioning.Single(), row -> 0, 4);
        ExecutionPlan rs = JoinTestSupport.source(r, new Partitioning.Single(), row -> 0, 4);
        List<Expr> lk = K1.exprs("l");
        List<Expr> rk = K1.exprs("r");
        for (JoinType type : List.of(JoinType.LEFT, JoinType.FULL, JoinType.LEFT_SEMI, JoinType.LEFT_ANTI,
                JoinType.LEFT_ANTI_NULL_AWARE)) {
            assertThatThrownBy(() -> new HashJoinExec(ls, rs, type, lk, rk, null, Mode.COLLECT_LEFT))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("COLLECT_LEFT supports INNER and RIGHT");
        }
        for (JoinType type : List.of(JoinType.RIGHT, JoinType.FULL)) {
            assertThatThrownBy(() -> new HashJoinExec(ls, rs, type, lk, rk, null, Mode.COLLECT_RIGHT))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("COLLECT_RIGHT does not support");
        }
        assertThatThrownBy(() -> new HashJoinExec(ls, rs, JoinType.LEFT_ANTI_NULL_AWARE, K12.exprs("l"),
                K12.exprs("r"), null, Mode.PARTITIONED)).hasMessageContaining("exactly one key");
        assertThatThrownBy(() -> new HashJoinExec(ls, rs, JoinType.INNER, List.of(), List.of(), null, Mode.PARTITIONED))
                .hasMessageContaining("at least one key");
        assertThatThrownBy(() -> new HashJoinExec(ls, rs, JoinType.INNER, lk, K12.exprs("r"), null, Mode.PARTITIONED))
                .hasMessageContaining("1 left keys but 2 right keys");
        assertThatThrownBy(() -> new HashJoinExec(ls, rs, JoinType.INNER, lk, List.of(new Column("r.k2")), null,
                Mode.PARTITIONED)).hasMessageContaining("differ in type");
        assertThatThrownBy(() -> new HashJoinExec(ls, rs, JoinType.INNER, lk, rk, new Column("l.v"), Mode.PARTITIONED))
                .hasMessageContaining("must be boolean");
        assertThatThrownBy(() -> new HashJoinExec(ls, ls, JoinType.INNER, lk, lk, null, Mode.PARTITIONED))
                .hasMessageContaining("share a column name");
    }

    @Test
    void unsatisfiedInputsFailAtExecution() {
        ExecutionPlan ls = JoinTestSupport.source(l, new Partitioning.Unknown(2), anyRow(2), 4);
        ExecutionPlan rs = JoinTestSupport.source(r, new Partitioning.Unknown(2), anyRow(2), 4);
        HashJoinExec join = new HashJoinExec(ls, rs, JoinType.INNER, K1.exprs("l"), K1.exprs("r"), null,
                Mode.PARTITIONED);
        assertThatThrownBy(() -> support.run(join, 4)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not satisfy key_partitioned([l.k1])");
        HashJoinExec notBroadcast = new HashJoinExec(ls, rs, JoinType.INNER, K1.exprs("l"), K1.exprs("r"), null,
                Mode.COLLECT_LEFT);
        assertThatThrownBy(() -> support.run(notBroadcast, 4)).hasMessageContaining("does not satisfy broadcast");
    }
}
