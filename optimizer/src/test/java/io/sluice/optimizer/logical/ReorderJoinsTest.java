package io.sluice.optimizer.logical;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.optimizer.physical.ParquetFixtures;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.StatisticsEstimator;
import io.sluice.plan.sql.InMemoryCatalog;
import io.sluice.plan.sql.SqlFrontEnd;
import io.sluice.plan.sql.Statement;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReorderJoinsTest {
    @TempDir
    static Path dir;

    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    @BeforeAll
    static void tables() throws Exception {
        CATALOG.register(ParquetFixtures.table(dir, "region", "SELECT i AS r_regionkey, 'R' || i AS r_name FROM range(5) t(i)"));
        CATALOG.register(ParquetFixtures.table(dir, "nation",
                "SELECT i AS n_nationkey, 'N' || i AS n_name, i % 5 AS n_regionkey FROM range(25) t(i)"));
        CATALOG.register(ParquetFixtures.table(dir, "supplier",
                "SELECT i AS s_suppkey, i % 25 AS s_nationkey FROM range(1, 101) t(i)"));
        CATALOG.register(ParquetFixtures.table(dir, "customer",
                "SELECT i AS c_custkey, i % 25 AS c_nationkey FROM range(1, 1501) t(i)"));
        CATALOG.register(ParquetFixtures.table(dir, "orders",
                "SELECT i AS o_orderkey, i % 1500 + 1 AS o_custkey, DATE '1992-01-01' + CAST(i % 2400 AS INTEGER) AS o_orderdate "
                        + "FROM range(1, 15001) t(i)"));
        CATALOG.register(ParquetFixtures.table(dir, "lineitem",
                "SELECT i // 4 + 1 AS l_orderkey, i % 100 + 1 AS l_suppkey, CAST(i * 1.5 AS DOUBLE) AS l_price FROM range(60000) t(i)"));
    }

    private static LogicalPlan plan(String sql, boolean reorder) {
        LogicalPlan plan = ((Statement.Query) SqlFrontEnd.parse(sql, CATALOG)).plan();
        return new LogicalOptimizer(LogicalOptimizer.standardRules(reorder, 10), 8).optimize(plan);
    }

    @Test
    void scratch() {
        String q5 = "SELECT n_name, sum(l_price) FROM customer, orders, lineitem, supplier, nation, region "
                + "WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey "
                + "AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey "
                + "AND r_name = 'R2' AND o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01' GROUP BY n_name";
        System.out.println(plan(q5, false).explain());
        LogicalPlan after = plan(q5, true);
        System.out.println(after.explain());
        System.out.println(after.explain(new StatisticsEstimator()));
    }
}
