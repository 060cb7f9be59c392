package io.sluice.datasource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Selectivity, join, aggregate and limit estimates over tables with fixed statistics: every number
 * asserted here follows from the formulas the estimator documents.
 */
class StatisticsEstimatorTest {
    private static final TableSource ORDERS = new TableSource("orders", FileFormat.PARQUET, "/nowhere/orders", Schema.of(
            new Field("o_orderkey", DataType.INT64), new Field("o_custkey", DataType.INT64),
            new Field("o_status", DataType.UTF8), new Field("o_price", DataType.FLOAT64)));
    private static final TableSource CUSTOMER = new TableSource("customer", FileFormat.PARQUET, "/nowhere/customer",
            Schema.of(new Field("c_custkey", DataType.INT64), new Field("c_name", DataType.UTF8)));

    /** A compound key (partkey, suppkey) as TPC-H's partsupp, and rows that reference it as lineitem's do. */
    private static final TableSource PARTSUPP = new TableSource("partsupp", FileFormat.PARQUET, "/nowhere/partsupp",
            Schema.of(new Field("ps_partkey", DataType.INT64), new Field("ps_suppkey", DataType.INT64)));
    private static final TableSource LINEITEM = new TableSource("lineitem", FileFormat.PARQUET, "/nowhere/lineitem",
            Schema.of(new Field("l_partkey", DataType.INT64), new Field("l_suppkey", DataType.INT64)));

    private static ColumnStatistics ints(double distinct, long min, long max) {
        return new ColumnStatistics(Estimate.inexact(distinct), Estimate.exact(0), min, max, Estimate.Precision.EXACT, 8);
    }

    private static final Map<String, Statistics> TABLES = Map.of(
            "orders", Statistics.of(Estimate.exact(15000), List.of(ints(15000, 1, 15000), ints(1000, 1, 1000),
                    new ColumnStatistics(Estimate.ABSENT, Estimate.exact(0), "A", "Z", Estimate.Precision.INEXACT, 5),
                    new ColumnStatistics(Estimate.ABSENT, Estimate.exact(1500), 0.0, 100.0, Estimate.Precision.EXACT, 8))),
            "customer", Statistics.of(Estimate.exact(1000), List.of(ints(1000, 1, 1000),
                    ColumnStatistics.unknown(DataType.UTF8))),
            "partsupp", Statistics.of(Estimate.exact(8000), List.of(ints(2000, 1, 2000), ints(100, 1, 100))),
            "lineitem", Statistics.of(Estimate.exact(60000), List.of(ints(2000, 1, 2000), ints(100, 1, 100))));

    private static Statistics estimate(String sql) {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.register(ORDERS);
        catalog.register(CUSTOMER);
        catalog.register(PARTSUPP);
        catalog.register(LINEITEM);
        LogicalPlan plan = ((Statement.Query) SqlFrontEnd.parse(sql, catalog)).plan();
        return new StatisticsEstimator(source -> TABLES.get(source.name())).of(plan);
    }

    private static double rows(String sql) {
        return estimate(sql).rowCount();
    }

    @Test
    void scansAreExactAndNarrowToTheirColumns() {
        Statistics s = estimate("SELECT o_custkey FROM orders");
        assertThat(s.rows()).isEqualTo(Estimate.exact(15000));
        assertThat(s.columns()).containsExactly(ints(1000, 1, 1000));
    }

    @Test
    void equalityUsesDistinctCountsAndRanges() {
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey = 5")).isEqualTo(1);
        assertThat(rows("SELECT * FROM orders WHERE o_custkey = 5")).isCloseTo(15, within(1e-9));
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey = 99999")).as("outside the range").isZero();
        assertThat(rows("SELECT * FROM orders WHERE o_status = 'x'")).as("default").isCloseTo(1500, within(1e-9));
        assertThat(rows("SELECT * FROM orders WHERE o_custkey <> 5")).isCloseTo(15000 - 15, within(1e-9));
        Statistics s = estimate("SELECT * FROM orders WHERE o_custkey = 5");
        assertThat(s.column(1).distinctCount()).isEqualTo(Estimate.exact(1));
        assertThat(s.column(1).min()).isEqualTo(5L);
    }

    @Test
    void rangesInterpolateBetweenMinAndMax() {
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey < 1500.9")).isCloseTo(1500, within(1.0));
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey >= 13501")).isCloseTo(1500, within(1.0));
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey BETWEEN 1 AND 7500.5")).isCloseTo(7500, within(2.0));
        // NULLs never pass a comparison: 90% of o_price is non-NULL, and half of that is above 50.
        assertThat(rows("SELECT * FROM orders WHERE o_price > 50")).isCloseTo(6750, within(1e-6));
        assertThat(rows("SELECT * FROM orders WHERE o_status > 'M'")).as("no numeric range").isCloseTo(5000, within(1e-6));
        // Two bounds on one column are one interval (10% of the range), not two independent half-ranges (18%).
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey >= 3001 AND o_orderkey < 4501 AND o_custkey > 500"))
                .isCloseTo(1500 * 0.5, within(1.0));
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey > 9000 AND o_orderkey < 5000")).as("empty").isZero();
    }

    @Test
    void likeInNullsAndBooleanCombinations() {
        assertThat(rows("SELECT * FROM orders WHERE o_status LIKE 'A%'")).isCloseTo(1500, within(1e-6));
        assertThat(rows("SELECT * FROM orders WHERE o_status NOT LIKE 'A%'")).isCloseTo(13500, within(1e-6));
        assertThat(rows("SELECT * FROM orders WHERE o_status LIKE '%special%requests%'")).as("two literal runs")
                .isCloseTo(150, within(1e-6));
        assertThat(rows("SELECT * FROM orders WHERE CAST(o_custkey AS VARCHAR) LIKE '%1%2%3%4%'"))
                .as("at least one distinct value's share").isCloseTo(15, within(1e-6));
        assertThat(rows("SELECT * FROM orders WHERE o_price IS NULL")).isCloseTo(1500, within(1e-6));
        assertThat(rows("SELECT * FROM orders WHERE o_price IS NOT NULL")).isCloseTo(13500, within(1e-6));
        assertThat(rows("SELECT * FROM orders WHERE o_custkey IN (1, 2, 3)")).isCloseTo(45, within(0.1));
        assertThat(rows("SELECT * FROM orders WHERE o_custkey = 5 AND o_status = 'x'")).isCloseTo(1.5, within(1e-9));
        assertThat(rows("SELECT * FROM orders WHERE o_custkey = 5 OR o_status = 'x'"))
                .isCloseTo(15000 * (0.001 + 0.1 - 0.0001), within(1e-6));
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey = 99999 AND o_custkey = 5")).isZero();
        assertThat(rows("SELECT * FROM orders WHERE o_orderkey = 5 AND o_custkey = 5")).as("at least one row").isEqualTo(1);
    }

    @Test
    void joinCardinalityFromTheKeysDistinctCounts() {
        // 15000 * 1000 / max(1000, 1000)
        Statistics join = estimate("SELECT * FROM orders JOIN customer ON o_custkey = c_custkey");
        assertThat(join.rowCount()).isCloseTo(15000, within(1e-6));
        assertThat(join.rows().precision()).isEqualTo(Estimate.Precision.INEXACT);
        // A filtered customer side: 15000 * 1 / max(1000, 1)... the filter leaves one key value.
        assertThat(rows("SELECT * FROM orders JOIN customer ON o_custkey = c_custkey WHERE c_custkey = 7"))
                .isCloseTo(15, within(1e-6));
        assertThat(rows("SELECT * FROM orders, customer")).isEqualTo(15_000_000);
        assertThat(estimate("SELECT * FROM orders, customer").rows().precision()).isEqualTo(Estimate.Precision.EXACT);
        assertThat(rows("SELECT * FROM customer LEFT JOIN orders ON o_custkey = c_custkey AND o_orderkey = 1"))
                .as("a left join keeps every left row").isCloseTo(1000, within(1e-6));
        StatisticsEstimator estimator = new StatisticsEstimator(source -> TABLES.get(source.name()));
        List<io.sluice.logical.expr.Expr> c = List.of(new io.sluice.logical.expr.Column("c_custkey"));
        List<io.sluice.logical.expr.Expr> o = List.of(new io.sluice.logical.expr.Column("o_custkey"));
        LogicalPlan filteredOrders = new Filter(new TableScan(ORDERS), (
                new io.sluice.logical.expr.Binary(io.sluice.common.types.BinaryOp.LT, new io.sluice.logical.expr.Column("o_custkey"),
                        io.sluice.logical.expr.Literal.of(101L))));
        // Semi: the share of customer keys orders has (about 100 of 1000 after the filter); anti: the rest.
        assertThat(estimator.of(new Join(new TableScan(CUSTOMER), filteredOrders, JoinType.LEFT_SEMI, c, o, null))
                .rowCount()).isCloseTo(100, within(1.0));
        assertThat(estimator.of(new Join(new TableScan(CUSTOMER), filteredOrders, JoinType.LEFT_ANTI, c, o, null))
                .rowCount()).isCloseTo(900, within(1.0));
    }

    /**
     * A compound foreign key matches one row of the key it references: the product of its columns'
     * distinct counts (capped by the 60000 rows) would make the join 8000, not 60000. A compound key
     * with a unique column keeps the product: the other column is an independent condition.
     */
    @Test
    void compoundKeysAreCorrelatedUnlessOneColumnIsUnique() {
        assertThat(rows("SELECT * FROM lineitem JOIN partsupp ON l_partkey = ps_partkey AND l_suppkey = ps_suppkey"))
                .isCloseTo(60000, within(1e-6));
        assertThat(rows("SELECT * FROM orders JOIN customer ON o_custkey = c_custkey AND o_orderkey = c_custkey"))
                .as("c_custkey is unique: 15000 * 1000 / (1000 * 15000 capped at 15000)").isCloseTo(1000, within(1e-6));
        assertThat(rows("SELECT * FROM orders, (SELECT count(*) AS n FROM customer) c WHERE o_orderkey > n"))
                .as("a cross join with a scalar subquery's one row keeps the rows the filter keeps")
                .isCloseTo(15000 * io.sluice.logical.stats.Selectivity.RANGE, within(1.0));
    }

    @Test
    void aggregatesFromTheGroupKeysDistinctCounts() {
        assertThat(rows("SELECT o_custkey, count(*) FROM orders GROUP BY o_custkey")).isCloseTo(1000, within(1e-6));
        assertThat(rows("SELECT o_custkey, o_orderkey, count(*) FROM orders GROUP BY o_custkey, o_orderkey"))
                .as("capped by the input").isCloseTo(15000, within(1e-6));
        assertThat(estimate("SELECT count(*) FROM orders").rows()).isEqualTo(Estimate.exact(1));
        assertThat(rows("SELECT o_status, count(*) FROM orders GROUP BY o_status")).as("unknown: as many as rows")
                .isCloseTo(15000, within(1e-6));
    }

    @Test
    void limitsCapRowsAndExplainPrintsThem() {
        assertThat(estimate("SELECT * FROM orders LIMIT 10").rows()).isEqualTo(Estimate.exact(10));
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.register(ORDERS);
        LogicalPlan plan = ((Statement.Query) SqlFrontEnd.parse("SELECT o_custkey FROM orders WHERE o_custkey = 5",
                catalog)).plan();
        assertThat(plan.explain(new StatisticsEstimator(source -> TABLES.get(source.name())))).isEqualTo("""
                Projection: o_custkey  [rows=~15]
                  Filter: (o_custkey = 5)  [rows=~15]
                    TableScan: orders  [rows=15000]
                """);
    }
}
