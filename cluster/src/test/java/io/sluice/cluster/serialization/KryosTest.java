package io.sluice.cluster.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.KryoException;
import io.sluice.cluster.SamplePlans;
import io.sluice.cluster.protocol.MapOutputColumn;
import io.sluice.cluster.protocol.MapOutputs;
import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.MapStatus;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class KryosTest {
    /**
     * A stage plan travels as bytes inside the task message; at TPC-H SF 10 q3's was 2.3 MB, past
     * the element count limit, and the worker dropped the task (the query then hung).
     */
    @Test
    void aTaskWhosePlanIsLargerThanTheElementLimitRoundTrips() {
        byte[] plan = new byte[Kryos.MAX_LENGTH * 3];
        new Random(7).nextBytes(plan);
        TaskDescription task = new TaskDescription("job", "task", 1, 2, 0, plan);

        TaskDescription back = Kryos.deserialize(Kryos.serialize(task), TaskDescription.class);

        assertThat(back.plan()).isEqualTo(plan);
        byte[] truncated = Arrays.copyOf(Kryos.serialize(task), Kryos.MAX_LENGTH * 2);
        assertThatThrownBy(() -> Kryos.deserialize(truncated, TaskDescription.class))
                .isInstanceOf(KryoException.class).hasMessageContaining("byte array length " + plan.length)
                .hasMessageContaining("bytes left in the message");
    }

    @Test
    void logicalPlanRoundTripsEqual() {
        LogicalPlan plan = SamplePlans.samplePlan();
        LogicalPlan back = Kryos.deserialize(Kryos.serialize(plan), LogicalPlan.class);
        assertThat(back).isEqualTo(plan).isNotSameAs(plan);
        assertThat(back.explain()).isEqualTo(plan.explain());
        assertThat(back.schema()).isEqualTo(plan.schema());
    }

    @Test
    void eachNodeKindRoundTrips() {
        LogicalPlan node = SamplePlans.samplePlan();
        while (true) {
            assertThat(Kryos.deserialize(Kryos.serialize(node), LogicalPlan.class)).isEqualTo(node);
            if (node.children().isEmpty()) {
                break;
            }
            node = node.children().get(0);
        }
        assertThat(roundTrip(new TableScan(SamplePlans.ORDERS))).isEqualTo(new TableScan(SamplePlans.ORDERS));
    }

    @Test
    void typesSourcesAndLiteralsRoundTrip() {
        for (Object value : List.<Object>of(SamplePlans.ORDERS, SamplePlans.ORDERS.schema(), DataType.decimal(18, 4), DataType.NULL,
                DataType.decimal(38, 10), DataType.map(DataType.UTF8, DataType.list(DataType.struct(List.of(
                        new Field("a", DataType.INT32), new Field("b", DataType.decimal(20, 3)))))), Literal.ofDecimal(new BigDecimal("-12345678901234567890123456.789012345678")),
                Literal.ofDecimal(new BigDecimal("12.5")),
                new ScanPartition("file:///a.parquet", 3),
                new ScanPartition("hdfs://nn:8020/a.parquet", 0, List.of(), List.of("dn1", "10.0.0.1")), FileFormat.CSV, Literal.of(-7L), Literal.of(Double.NaN),
                Literal.ofDate(LocalDate.of(1970, 1, 1)), new SortKey(new Column("x"), false, true))) {
            assertThat(roundTrip(value)).isEqualTo(value);
        }
    }

    /** A table's format options reach the workers as given: names in their normal form, in order, read-only. */
    @Test
    void tableOptionsRoundTripInOrder() {
        TableSource source = new TableSource("t", FileFormat.CSV, "file:///t.csv", SamplePlans.ORDERS.schema(),
                Map.of("SEP", "|", "header", "true", "dateFormat", "dd/MM/yyyy"));
        TableSource read = roundTrip(source);
        assertThat(read).isEqualTo(source);
        assertThat(read.options()).containsExactly(Map.entry("dateformat", "dd/MM/yyyy"),
                Map.entry("header", "true"), Map.entry("sep", "|"));
        assertThatThrownBy(() -> read.options().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void explodeRoundTrips() {
        TableSource nested = new TableSource("n", FileFormat.PARQUET,
                "file:///n", Schema.of(new Field("k", DataType.INT64), new Field("xs", DataType.list(DataType.UTF8))));
        LogicalPlan generate = new io.sluice.logical.plan.Generate(new TableScan(nested), new Column("xs"), true, List.of("x"));
        assertThat(roundTrip(generate)).isEqualTo(generate);
        LogicalPlan posexplode = new io.sluice.logical.plan.Generate(new TableScan(nested),
                io.sluice.logical.plan.Generate.Function.POSEXPLODE, new Column("xs"), false, List.of("p", "x"));
        assertThat(roundTrip(posexplode)).isEqualTo(posexplode);
        io.sluice.operators.basic.GenerateExec exec = new io.sluice.operators.basic.GenerateExec(
                new io.sluice.operators.basic.EmptyExec(nested.schema()), io.sluice.logical.plan.Generate.Function.POSEXPLODE,
                new Column("xs"), false, posexplode.schema());
        assertThat(roundTrip(exec)).isEqualTo(exec);
    }

    /** The planner's choice of build side travels with the join: a worker builds what EXPLAIN shows. */
    @Test
    void aJoinThatBuildsItsLeftRoundTrips() {
        var left = new io.sluice.operators.basic.EmptyExec(Schema.of(new Field("l.k", DataType.INT64)));
        var right = new io.sluice.operators.basic.EmptyExec(Schema.of(new Field("r.k", DataType.INT64)));
        var join = new io.sluice.operators.join.HashJoinExec(left, right, io.sluice.logical.plan.JoinType.LEFT_SEMI,
                List.of(new Column("l.k")), List.of(new Column("r.k")), null,
                io.sluice.operators.join.HashJoinExec.Mode.PARTITIONED).withLeftBuild();
        io.sluice.operators.join.HashJoinExec back = roundTrip(join);
        assertThat(back).isEqualTo(join);
        assertThat(back.buildsLeft()).isTrue();
    }

    @Test
    void mapStatusKeepsItsBytes() {
        MapStatus status = new MapStatus("worker-1", "127.0.0.1", 4242, new long[] {0, 17, Long.MAX_VALUE, 3});
        MapStatus back = Kryos.deserialize(Kryos.serialize(status), MapStatus.class);
        assertThat(back.workerId()).isEqualTo("worker-1");
        assertThat(back.host()).isEqualTo("127.0.0.1");
        assertThat(back.port()).isEqualTo(4242);
        assertThat(back.bytesPerPartition()).containsExactly(0, 17, Long.MAX_VALUE, 3);
        assertThat(back.totalBytes()).isEqualTo(status.totalBytes());
    }

    @Test
    void mapOutputAnswersRoundTrip() {
        MapStatus block = new MapStatus("worker-1", "127.0.0.1", 4242, new long[] {17});
        MapOutputs back = Kryos.deserialize(Kryos.serialize(MapOutputs.of(List.of(block))), MapOutputs.class);
        assertThat(back.error()).isNull();
        assertThat(back.blocks()).hasSize(1);
        assertThat(back.blocks().get(0).bytesPerPartition()).containsExactly(17);
        assertThat(Kryos.deserialize(Kryos.serialize(MapOutputs.failed("gone")), MapOutputs.class).error())
                .isEqualTo("gone");
    }

    @Test
    void mapOutputColumnsRoundTrip() {
        MapStatus block = new MapStatus("worker-1", "127.0.0.1", 4242, new long[] {17});
        MapOutputColumn back = Kryos.deserialize(Kryos.serialize(new MapOutputColumn("job-s0", 5, List.of(block, block))),
                MapOutputColumn.class);
        assertThat(back.shuffleId()).isEqualTo("job-s0");
        assertThat(back.partition()).isEqualTo(5);
        assertThat(back.blocks()).hasSize(2).allSatisfy(b -> {
            assertThat(b.workerId()).isEqualTo("worker-1");
            assertThat(b.port()).isEqualTo(4242);
            assertThat(b.bytesPerPartition()).containsExactly(17);
        });
    }

    @Test
    void jdkImmutableCollectionsRoundTrip() {
        List<Object> values = new ArrayList<>(List.of(
                List.of(), List.of("a"), List.of("a", "b"), List.of(1L, 2.0, "three", true),
                List.copyOf(new ArrayList<>(List.of(1, 2, 3))), Stream.of("x", "y", "z").toList(),
                List.of(1, 2, 3, 4).subList(1, 3),
                Set.of(), Set.of("a"), Set.of("a", "b", "c"), Map.of(), Map.of("k", 1L), Map.of("a", 1, "b", 2, "c", 3),
                Collections.unmodifiableList(new ArrayList<>(List.of("u", "v"))),
                Collections.unmodifiableSet(new LinkedHashSet<>(List.of("s", "t"))),
                Collections.unmodifiableMap(new LinkedHashMap<>(Map.of("m", 1))),
                Arrays.asList("p", "q"), Collections.emptyList(), Collections.singletonList("one"),
                Collections.emptyMap(), Collections.singletonMap("k", "v"), Collections.singleton(1),
                new TreeMap<>(Map.of("b", 2, "a", 1)), new HashMap<>(Map.of("h", 1))));
        for (Object value : values) {
            Object back = roundTrip(value);
            assertThat(back).as("%s (%s)", value, value.getClass().getName()).isEqualTo(value);
        }
    }

    @Test
    void readOnlyCollectionsStayReadOnlyAndOrdered() {
        List<String> list = roundTrip(List.of("a", "b", "c"));
        assertThatThrownBy(() -> list.add("d")).isInstanceOf(UnsupportedOperationException.class);
        Set<String> set = roundTrip(Collections.unmodifiableSet(new LinkedHashSet<>(List.of("z", "a", "m"))));
        assertThat(set).containsExactly("z", "a", "m");
        assertThatThrownBy(() -> set.add("q")).isInstanceOf(UnsupportedOperationException.class);
        Map<String, Integer> map = roundTrip(Collections.unmodifiableMap(new LinkedHashMap<>(Map.of("k", 1))));
        assertThatThrownBy(() -> map.put("x", 2)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void streamToListMayHoldNulls() {
        List<String> withNull = Stream.of("a", null, "c").toList();
        List<String> back = roundTrip(withNull);
        assertThat(back).containsExactly("a", null, "c");
        assertThatThrownBy(() -> back.add("d")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void sharedSubtreesStayShared() {
        Column shared = new Column("id");
        List<Expr> exprs = List.of(shared, shared);
        List<Expr> back = roundTrip(exprs);
        assertThat(back.get(0)).isSameAs(back.get(1));
    }

    @Test
    void nullRoundTripsAndWrongTypeFails() {
        assertThat(Kryos.deserialize(Kryos.serialize(null), LogicalPlan.class)).isNull();
        byte[] bytes = Kryos.serialize(Literal.of(1L));
        assertThatThrownBy(() -> Kryos.deserialize(bytes, LogicalPlan.class))
                .isInstanceOf(KryoException.class).hasMessageContaining("LogicalPlan");
    }

    @Test
    void poolIsSafeAcrossThreads() throws Exception {
        LogicalPlan plan = SamplePlans.samplePlan();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<LogicalPlan>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(pool.submit(() -> Kryos.deserialize(Kryos.serialize(plan), LogicalPlan.class)));
            }
            for (Future<LogicalPlan> f : results) {
                assertThat(f.get()).isEqualTo(plan);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) {
        return (T) Kryos.deserialize(Kryos.serialize(value), Object.class);
    }
}
