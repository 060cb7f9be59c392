package io.sluice.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.FileFormats;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Join reordering on small TPC-H-shaped Parquet tables (statistics from their footers): whole plans
 * before and after, idempotence, cross products avoided, outer joins kept in place, greedy order
 * beyond the DP limit, and the switch.
 */
class ReorderJoinsTest {
    @TempDir
    static Path dir;

    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    static final String Q5 = "SELECT n_name, sum(l_price) AS revenue FROM customer, orders, lineitem, supplier, nation, region "
            + "WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey "
            + "AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey "
            + "AND r_name = 'R2' AND o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01' GROUP BY n_name";

    @BeforeAll
    static void tables() throws Exception {
        CATALOG.register(FileFormats.register("region", FileFormat.PARQUET, ParquetFixtures.write(dir, "region",
                "SELECT i AS r_regionkey, 'R' || i AS r_name FROM range(5) t(i)")));
        CATALOG.register(FileFormats.register("nation", FileFormat.PARQUET, ParquetFixtures.write(dir, "nation",
                "SELECT i AS n_nationkey, 'N' || i AS n_name, i % 5 AS n_regionkey FROM range(25) t(i)")));
        CATALOG.register(FileFormats.register("supplier", FileFormat.PARQUET, ParquetFixtures.write(dir, "supplier",
                "SELECT i AS s_suppkey, i % 25 AS s_nationkey FROM range(1, 101) t(i)")));
        CATALOG.register(FileFormats.register("customer", FileFormat.PARQUET, ParquetFixtures.write(dir, "customer",
                "SELECT i AS c_custkey, i % 25 AS c_nationkey FROM range(1, 1501) t(i)")));
        CATALOG.register(FileFormats.register("orders", FileFormat.PARQUET, ParquetFixtures.write(dir, "orders",
                "SELECT i AS o_orderkey, i % 1500 + 1 AS o_custkey, DATE '1992-01-01' + CAST(i % 2400 AS INTEGER) AS o_orderdate "
                        + "FROM range(1, 15001) t(i)")));
        CATALOG.register(FileFormats.register("lineitem", FileFormat.PARQUET, ParquetFixtures.write(dir, "lineitem",
                "SELECT i // 4 + 1 AS l_orderkey, i % 100 + 1 AS l_suppkey, i % 40 + 1 AS l_partkey, "
                        + "CAST(i * 1.5 AS DOUBLE) AS l_price FROM range(60000) t(i)")));
        CATALOG.register(FileFormats.register("part", FileFormat.PARQUET, ParquetFixtures.write(dir, "part",
                "SELECT i AS p_partkey, i % 50 AS p_size FROM range(1, 41) t(i)")));
        CATALOG.register(FileFormats.register("partsupp", FileFormat.PARQUET, ParquetFixtures.write(dir, "partsupp",
                "SELECT i // 4 + 1 AS ps_partkey, i % 100 + 1 AS ps_suppkey, i AS ps_cost FROM range(160) t(i)")));
    }

    private static LogicalPlan parse(String sql) {
        return ((Statement.Query) SqlFrontEnd.parse(sql, CATALOG)).plan();
    }

    private static LogicalPlan optimize(LogicalPlan plan, boolean reorder, int dpLimit) {
        return new LogicalOptimizer(LogicalOptimizer.standardRules(reorder, dpLimit, StatisticsEstimator::new, new EvaluatingConstantFolder()), 8).optimize(plan);
    }

    private static LogicalPlan optimize(String sql, boolean reorder) {
        return optimize(parse(sql), reorder, ReorderJoins.DEFAULT_DP_LIMIT);
    }

    private static String text(LogicalPlan plan) {
        return plan.explain().replace(dir.toString(), "DIR");
    }

    /** Inner joins in a plan without keys (cross products, maybe with a residual filter). */
    static long keylessJoins(LogicalPlan plan) {
        long own = plan instanceof Join j && j.leftKeys().isEmpty() ? 1 : 0;
        return own + plan.children().stream().mapToLong(ReorderJoinsTest::keylessJoins).sum();
    }

    /**
     * Q5 as written joins customer and orders first and region last. Reordered, the one filtered
     * region joins nation first, then suppliers, customers, filtered orders, and lineitem last (the
     * largest input, probing a small build side); no join loses its key.
     */
    @Test
    void q5JoinsFromTheSelectiveDimensionsOutwards() {
        LogicalPlan written = optimize(parse(Q5), false, ReorderJoins.DEFAULT_DP_LIMIT);
        RuleTesting.assertRewrite(new ReorderJoins(ReorderJoins.DEFAULT_DP_LIMIT, StatisticsEstimator::new), written, """
                Projection: nation.n_name AS n_name, sum(lineitem.l_price) AS revenue
                  Aggregate: groupBy=[nation.n_name], aggr=[sum(lineitem.l_price)]
                    Join: INNER keys=[nation.n_regionkey = region.r_regionkey]
                      Join: INNER keys=[supplier.s_nationkey = nation.n_nationkey]
                        Join: INNER keys=[lineitem.l_suppkey = supplier.s_suppkey, customer.c_nationkey = supplier.s_nationkey]
                          Join: INNER keys=[orders.o_orderkey = lineitem.l_orderkey]
                            Join: INNER keys=[customer.c_custkey = orders.o_custkey]
                              SubqueryAlias: customer
                                TableScan: customer
                              SubqueryAlias: orders
                                Projection: o_orderkey, o_custkey
                                  Filter: ((o_orderdate >= DATE '1994-01-01') AND (o_orderdate < DATE '1995-01-01'))
                                    TableScan: orders
                            SubqueryAlias: lineitem
                              TableScan: lineitem projection=[l_orderkey, l_suppkey, l_price]
                          SubqueryAlias: supplier
                            TableScan: supplier
                        SubqueryAlias: nation
                          TableScan: nation
                      SubqueryAlias: region
                        Projection: r_regionkey
                          Filter: (r_name = 'R2')
                            TableScan: region
                """, """
                Projection: nation.n_name AS n_name, sum(lineitem.l_price) AS revenue
                  Aggregate: groupBy=[nation.n_name], aggr=[sum(lineitem.l_price)]
                    Projection: customer.c_custkey, customer.c_nationkey, orders.o_orderkey, orders.o_custkey, \
                lineitem.l_orderkey, lineitem.l_suppkey, lineitem.l_price, supplier.s_suppkey, \
                supplier.s_nationkey, nation.n_nationkey, nation.n_name, nation.n_regionkey, region.r_regionkey
                      Join: INNER keys=[lineitem.l_suppkey = supplier.s_suppkey, lineitem.l_orderkey = orders.o_orderkey]
                        SubqueryAlias: lineitem
                          TableScan: lineitem projection=[l_orderkey, l_suppkey, l_price]
                        Join: INNER keys=[orders.o_custkey = customer.c_custkey]
                          SubqueryAlias: orders
                            Projection: o_orderkey, o_custkey
                              Filter: ((o_orderdate >= DATE '1994-01-01') AND (o_orderdate < DATE '1995-01-01'))
                                TableScan: orders
                          Join: INNER keys=[customer.c_nationkey = supplier.s_nationkey]
                            SubqueryAlias: customer
                              TableScan: customer
                            Join: INNER keys=[supplier.s_nationkey = nation.n_nationkey]
                              SubqueryAlias: supplier
                                TableScan: supplier
                              Join: INNER keys=[nation.n_regionkey = region.r_regionkey]
                                SubqueryAlias: nation
                                  TableScan: nation
                                SubqueryAlias: region
                                  Projection: r_regionkey
                                    Filter: (r_name = 'R2')
                                      TableScan: region
                """);
    }

    /** The whole optimizer with reordering reaches a fixed point, and optimizing its output changes nothing. */
    @Test
    void reorderingTwiceEqualsReorderingOnce() {
        for (String sql : List.of(Q5, Q2_SHAPE, OUTER_AND_INNER)) {
            LogicalOptimizer optimizer = new LogicalOptimizer(LogicalOptimizer.standardRules(StatisticsEstimator::new, new EvaluatingConstantFolder()), 8);
            LogicalOptimizer.Result once = optimizer.run(parse(sql));
            assertThat(once.fixedPoint()).as(sql).isTrue();
            assertThat(optimizer.optimize(once.plan()).explain()).as(sql).isEqualTo(once.plan().explain());
            assertThat(new ReorderJoins(ReorderJoins.DEFAULT_DP_LIMIT, StatisticsEstimator::new).apply(once.plan())).as(sql).isSameAs(once.plan());
        }
    }

    /** TPC-H Q2's FROM order puts part and supplier side by side with no predicate between them. */
    static final String Q2_SHAPE = "SELECT p_partkey, s_suppkey, n_name FROM part, supplier, partsupp, nation, region "
            + "WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND p_size = 15 "
            + "AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = 'R3'";

    @Test
    void aConnectedGraphGetsNoCrossProduct() {
        assertThat(keylessJoins(optimize(Q2_SHAPE, false))).as("as written").isEqualTo(1);
        LogicalPlan reordered = optimize(Q2_SHAPE, true);
        assertThat(keylessJoins(reordered)).as(reordered.explain()).isZero();
        assertThat(reordered.schema().names()).isEqualTo(optimize(Q2_SHAPE, false).schema().names());
    }

    @Test
    void greedyBeyondTheDpLimitAlsoAvoidsCrossProducts() {
        LogicalPlan greedy = optimize(parse(Q2_SHAPE), true, 2);
        assertThat(keylessJoins(greedy)).as(greedy.explain()).isZero();
        LogicalPlan q5 = optimize(parse(Q5), true, 3);
        assertThat(keylessJoins(q5)).as(q5.explain()).isZero();
        assertThat(new LogicalOptimizer(LogicalOptimizer.standardRules(true, 3, StatisticsEstimator::new, new EvaluatingConstantFolder()), 8).optimize(q5).explain())
                .isEqualTo(q5.explain());
    }

    /** Unconnected parts are cross joined once, last, over the joined components. */
    @Test
    void aDisconnectedGraphCrossJoinsItsComponentsLast() {
        LogicalPlan plan = optimize("SELECT n_name, p_size FROM part, nation, region "
                + "WHERE n_regionkey = r_regionkey AND r_name = 'R1' AND p_size < 10", true);
        assertThat(text(plan)).isEqualTo("""
                Projection: nation.n_name AS n_name, part.p_size AS p_size
                  Join: CROSS
                    SubqueryAlias: part
                      Filter: (p_size < 10)
                        TableScan: part projection=[p_size]
                    Join: INNER keys=[nation.n_regionkey = region.r_regionkey]
                      SubqueryAlias: nation
                        TableScan: nation projection=[n_name, n_regionkey]
                      SubqueryAlias: region
                        Projection: r_regionkey
                          Filter: (r_name = 'R1')
                            TableScan: region
                """);
    }

    static final String OUTER_AND_INNER = "SELECT c_custkey, o_orderkey, n_name FROM customer "
            + "LEFT JOIN orders ON c_custkey = o_custkey AND o_orderdate < DATE '1992-02-01', nation, region "
            + "WHERE c_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = 'R1'";

    /** A left join is a leaf of the inner join graph: it keeps its inputs, type and condition. */
    @Test
    void outerJoinsKeepTheirPlaceAndSemantics() {
        LogicalPlan plan = optimize(OUTER_AND_INNER, true);
        assertThat(text(plan)).isEqualTo("""
                Projection: customer.c_custkey AS c_custkey, orders.o_orderkey AS o_orderkey, nation.n_name AS n_name
                  Join: INNER keys=[customer.c_nationkey = nation.n_nationkey]
                    Join: LEFT keys=[customer.c_custkey = orders.o_custkey]
                      SubqueryAlias: customer
                        TableScan: customer
                      SubqueryAlias: orders
                        Projection: o_orderkey, o_custkey
                          Filter: (o_orderdate < DATE '1992-02-01')
                            TableScan: orders
                    Join: INNER keys=[nation.n_regionkey = region.r_regionkey]
                      SubqueryAlias: nation
                        TableScan: nation
                      SubqueryAlias: region
                        Projection: r_regionkey
                          Filter: (r_name = 'R1')
                            TableScan: region
                """);
    }

    @Test
    void theSwitchKeepsTheWrittenOrder() {
        assertThat(LogicalOptimizer.standardRules(false, 10, StatisticsEstimator::new, new EvaluatingConstantFolder())).noneMatch(r -> r instanceof ReorderJoins);
        assertThat(LogicalOptimizer.standardRules(StatisticsEstimator::new, new EvaluatingConstantFolder())).anyMatch(r -> r instanceof ReorderJoins);
    }

    /**
     * Fourteen tables in a chain (greedy beyond the DP limit) and a ten-table star (exhaustive) plan
     * quickly and without a cross product; statistics here are given, not read from files.
     */
    @Test
    void largeGraphsPlanQuicklyWithoutCrossProducts() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        java.util.Map<String, io.sluice.logical.stats.Statistics> stats = new java.util.HashMap<>();
        for (int i = 0; i < 14; i++) {
            catalog.register(new io.sluice.logical.source.TableSource("d" + i, io.sluice.logical.source.FileFormat.PARQUET,
                    "/nowhere/d" + i, io.sluice.common.types.Schema.of(
                            new io.sluice.common.types.Field("id", io.sluice.common.types.DataType.INT64),
                            new io.sluice.common.types.Field("fk", io.sluice.common.types.DataType.INT64))));
            double rows = 1000 * (i + 1);
            stats.put("d" + i, io.sluice.logical.stats.Statistics.of(io.sluice.logical.stats.Estimate.exact(rows), List.of(
                    new io.sluice.logical.stats.ColumnStatistics(io.sluice.logical.stats.Estimate.inexact(rows),
                            io.sluice.logical.stats.Estimate.exact(0), 0L, (long) rows, io.sluice.logical.stats.Estimate.Precision.EXACT, 8),
                    new io.sluice.logical.stats.ColumnStatistics(io.sluice.logical.stats.Estimate.inexact(500),
                            io.sluice.logical.stats.Estimate.exact(0), 0L, 499L, io.sluice.logical.stats.Estimate.Precision.EXACT, 8))));
        }
        StringBuilder chain = new StringBuilder("SELECT count(*) FROM d13");
        StringBuilder star = new StringBuilder("SELECT count(*) FROM d0");
        List<String> chainKeys = new java.util.ArrayList<>();
        List<String> starKeys = new java.util.ArrayList<>();
        for (int i = 12; i >= 0; i--) {
            chain.append(", d").append(i);
            chainKeys.add("d" + i + ".fk = d" + (i + 1) + ".id");
        }
        for (int i = 1; i < 10; i++) {
            star.append(", d").append(i);
            starKeys.add("d0.fk = d" + i + ".id");
        }
        LogicalOptimizer optimizer = new LogicalOptimizer(List.of(new PushDownFilter(), new ExtractEquijoinPredicate(),
                new ReorderJoins(10, () -> new StatisticsEstimator(source -> stats.get(source.name())))), 8);
        for (String sql : List.of(chain + " WHERE " + String.join(" AND ", chainKeys),
                star + " WHERE " + String.join(" AND ", starKeys))) {
            LogicalPlan written = ((Statement.Query) SqlFrontEnd.parse(sql, catalog)).plan();
            long start = System.nanoTime();
            LogicalOptimizer.Result result = optimizer.run(written);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(keylessJoins(result.plan())).as(result.plan().explain()).isZero();
            assertThat(result.fixedPoint()).isTrue();
            System.out.println("planned in " + millis + " ms: " + sql);
            assertThat(millis).as("planning time of " + sql).isLessThan(5000);
        }
    }
}
