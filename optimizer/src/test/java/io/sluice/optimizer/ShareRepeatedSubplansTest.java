package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A costly subplan read by several consumers is marked shared, so the consumers' different filters
 * cannot split it into copies; a cheap one, or one whose every consumer prunes partitions, stays
 * inlined.
 */
class ShareRepeatedSubplansTest {
    /** Partitioned by day: a filter on day reads only its directories. */
    private static final TableSource P = new TableSource("p", FileFormat.PARQUET, "/data/p", Schema.of(
            new Field("k", DataType.UTF8),
            new Field("v", DataType.INT64),
            new Field("day", DataType.INT32)), List.of("day"));

    private static LogicalPlan sql(String query) {
        InMemoryCatalog catalog = RuleTesting.catalog();
        catalog.register(P);
        return ((Statement.Query) SqlFrontEnd.parse(query, catalog)).plan();
    }

    @Test
    void anAggregatingWithQueryReadByTwoFilteredConsumersIsShared() {
        assertRewrite(new ShareRepeatedSubplans(),
                sql("WITH g AS (SELECT k, sum(v) AS s FROM t GROUP BY k) "
                        + "SELECT s FROM g WHERE k = 'a' UNION ALL SELECT s FROM g WHERE s > 10"),
                """
                Union: all
                  Projection: g.s AS s
                    Filter: (g.k = 'a')
                      SubqueryAlias: g
                        Projection: k, sum(v) AS s
                          Aggregate: groupBy=[k], aggr=[sum(v)]
                            TableScan: t
                  Projection: g.s AS s
                    Filter: (g.s > 10)
                      SubqueryAlias: g
                        Projection: k, sum(v) AS s  (shared: printed above)
                """,
                """
                Union: all
                  Projection: g.s AS s
                    Filter: (g.k = 'a')
                      SubqueryAlias: g
                        SharedSubplan
                          Projection: k, sum(v) AS s
                            Aggregate: groupBy=[k], aggr=[sum(v)]
                              TableScan: t
                  Projection: g.s AS s
                    Filter: (g.s > 10)
                      SubqueryAlias: g
                        SharedSubplan  (shared: printed above)
                """);
    }

    @Test
    void aCheapWithQueryStaysInlined() {
        assertUnchanged(new ShareRepeatedSubplans(),
                sql("WITH c AS (SELECT k, v FROM t WHERE v > 0) SELECT a.k FROM c a JOIN c b ON a.k = b.k"));
    }

    @Test
    void aWithQueryWhoseConsumersAllPrunePartitionsStaysInlined() {
        assertUnchanged(new ShareRepeatedSubplans(),
                sql("WITH g AS (SELECT day, k, sum(v) AS s FROM p GROUP BY day, k) "
                        + "SELECT s FROM g WHERE day = 1 UNION ALL SELECT s FROM g WHERE day = 2 AND s > 10"));
        // one consumer reads every partition: then computing it once pays
        LogicalPlan mixed = sql("WITH g AS (SELECT day, k, sum(v) AS s FROM p GROUP BY day, k) "
                + "SELECT s FROM g WHERE day = 1 UNION ALL SELECT s FROM g WHERE s > 10");
        assertThat(new ShareRepeatedSubplans().apply(mixed).explain()).contains("SharedSubplan");
    }
}
