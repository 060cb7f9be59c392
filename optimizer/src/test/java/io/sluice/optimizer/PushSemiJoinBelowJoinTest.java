package io.sluice.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.FileFormats;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Semi and anti joins sinking into the input of an inner join, on small TPC-H-shaped Parquet
 * tables (estimates from their footers): whole plans after the whole optimizer.
 */
class PushSemiJoinBelowJoinTest {
    @TempDir
    static Path dir;

    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    @BeforeAll
    static void tables() throws Exception {
        CATALOG.register(FileFormats.register("customer", FileFormat.PARQUET, ParquetFixtures.write(dir, "customer",
                "SELECT i AS c_custkey, 'C' || i AS c_name, i % 25 AS c_nationkey FROM range(1, 1501) t(i)")));
        CATALOG.register(FileFormats.register("orders", FileFormat.PARQUET, ParquetFixtures.write(dir, "orders",
                "SELECT i AS o_orderkey, i % 1500 + 1 AS o_custkey, CAST(i AS DOUBLE) AS o_totalprice FROM range(1, 15001) t(i)")));
        CATALOG.register(FileFormats.register("lineitem", FileFormat.PARQUET, ParquetFixtures.write(dir, "lineitem",
                "SELECT i // 4 + 1 AS l_orderkey, i % 100 + 1 AS l_suppkey, CAST(i % 50 AS DOUBLE) AS l_quantity "
                        + "FROM range(60000) t(i)")));
        CATALOG.register(FileFormats.register("supplier", FileFormat.PARQUET, ParquetFixtures.write(dir, "supplier",
                "SELECT i AS s_suppkey, i % 25 AS s_nationkey FROM range(1, 101) t(i)")));
    }

    private static String optimized(String sql) {
        LogicalPlan plan = ((Statement.Query) SqlFrontEnd.parse(sql, CATALOG)).plan();
        LogicalOptimizer optimizer = new LogicalOptimizer(LogicalOptimizer.standardRules(StatisticsEstimator::new, new EvaluatingConstantFolder()), 8);
        LogicalOptimizer.Result result = optimizer.run(plan);
        assertThat(result.fixedPoint()).isTrue();
        String text = result.plan().explain().replace(dir.toString(), "DIR");
        System.out.println(text);
        return text;
    }

    /**
     * TPC-H q18's shape: the IN subquery reads only o_orderkey, so it filters orders (15000 rows)
     * before orders meet lineitem (60000 rows), not the joined rows.
     */
    @Test
    void anInSubqueryFiltersTheInputThatHasItsColumns() {
        String plan = optimized("SELECT c_name, o_orderkey, sum(l_quantity) FROM customer, orders, lineitem "
                + "WHERE o_orderkey IN (SELECT l_orderkey FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 150) "
                + "AND c_custkey = o_custkey AND o_orderkey = l_orderkey GROUP BY c_name, o_orderkey");
        assertThat(plan).containsPattern("""
                Join: LEFT_SEMI keys=\\[orders.o_orderkey = __sq1.l_orderkey\\]
                 *SubqueryAlias: orders
                 *TableScan: orders""");
        assertThat(plan.indexOf("LEFT_SEMI")).as("the semi join sits below the inner joins")
                .isGreaterThan(plan.lastIndexOf("Join: INNER"));
    }

    /**
     * An EXISTS over lineitem stays above an inner join that keeps fewer rows than lineitem has:
     * probing there tests fewer rows (TPC-H q21's shape).
     */
    @Test
    void aSemiJoinStaysAboveAJoinWithFewerRowsThanItsInput() {
        String plan = optimized("SELECT l1.l_orderkey FROM lineitem l1, supplier "
                + "WHERE l1.l_suppkey = s_suppkey AND s_nationkey = 3 "
                + "AND EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)");
        assertThat(plan.indexOf("LEFT_SEMI")).as("the semi join stays above the inner join")
                .isLessThan(plan.indexOf("Join: INNER"));
    }

    /** NOT IN (a null-aware anti join) sinks like IN: it drops a row by that row's own values. */
    @Test
    void notInSinksToo() {
        String plan = optimized("SELECT c_name, o_orderkey FROM customer, orders WHERE c_custkey = o_custkey "
                + "AND o_orderkey NOT IN (SELECT l_orderkey FROM lineitem WHERE l_quantity > 48)");
        assertThat(plan).containsPattern("""
                Join: LEFT_ANTI_NULL_AWARE keys=\\[orders.o_orderkey = __sq1.l_orderkey\\]
                 *SubqueryAlias: orders""");
    }
}
