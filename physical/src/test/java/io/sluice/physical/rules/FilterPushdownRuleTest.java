package io.sluice.physical.rules;

import static io.sluice.physical.PhysicalRuleTesting.beforeAfter;
import static io.sluice.physical.PhysicalRuleTesting.source;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.FileScanExec;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.sort.SortExec;
import io.sluice.physical.TestSource;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FilterPushdownRule} alone. */
class FilterPushdownRuleTest {
    private static final FilterPushdownRule RULE = new FilterPushdownRule();

    @TempDir
    static Path dir;

    private static TableSource table;

    @BeforeAll
    static void files() throws Exception {
        // Sorted by id in row groups of 2048: ids 0-2047, 2048-4095, 4096-6143, 6144-7999.
        table = FileFormats.register("t", FileFormat.PARQUET, ParquetFixtures.write(dir, "t",
                "SELECT range AS id, range % 5 AS k, range * 2 AS v FROM range(8000) ORDER BY id"));
    }

    private static String plan(ExecutionPlan plan) {
        return beforeAfter(RULE, plan).replace(dir.toString(), "DIR");
    }

    private static ExecutionPlan t() {
        return source("t", PlanProperties.of(new Partitioning.Unknown(3)), "a", "b");
    }

    private static Expr gt(String column, long value) {
        return new Binary(BinaryOp.GT, new Column(column), Literal.of(value));
    }

    @Test
    void aFilterGoesThroughAProjectionWithItsAliasesRewritten() {
        ExecutionPlan projection = new ProjectionExec(t(), List.of(new Alias(new Column("a"), "x"),
                new Alias(new Binary(BinaryOp.ADD, new Column("b"), Literal.of(1L)), "y")));
        ExecutionPlan plan = new FilterExec(projection, Exprs.and(List.of(gt("x", 1), gt("y", 2))));
        assertThat(plan(plan)).isEqualTo("""
                before:
                FilterExec: ((x > 1) AND (y > 2))  [unknown(3)]
                  ProjectionExec: a AS x, (b + 1) AS y  [unknown(3)]
                    TestSource: t  [unknown(3)]
                after:
                FilterExec: (y > 2)  [unknown(3)]
                  ProjectionExec: a AS x, (b + 1) AS y  [unknown(3)]
                    FilterExec: (a > 1)  [unknown(3)]
                      TestSource: t  [unknown(3)]
                """);
    }

    @Test
    void aFilterMergesIntoTheFilterBelow() {
        ExecutionPlan plan = new FilterExec(new FilterExec(t(), gt("a", 1)), gt("b", 2));
        assertThat(plan(plan)).isEqualTo("""
                before:
                FilterExec: (b > 2)  [unknown(3)]
                  FilterExec: (a > 1)  [unknown(3)]
                    TestSource: t  [unknown(3)]
                after:
                FilterExec: ((a > 1) AND (b > 2))  [unknown(3)]
                  TestSource: t  [unknown(3)]
                """);
    }

    @Test
    void aFilterGoesBelowASortAndARepartition() {
        ExecutionPlan exchange = new RepartitionExec(t(), new Partitioning.Single());
        ExecutionPlan sort = new SortExec(exchange, List.of(SortKey.asc(new Column("a"))), SortExec.NO_FETCH, false);
        assertThat(plan(new FilterExec(sort, gt("b", 2)))).isEqualTo("""
                before:
                FilterExec: (b > 2)  [single, order=a ASC NULLS LAST]
                  SortExec: [a ASC NULLS LAST]  [single, order=a ASC NULLS LAST]
                    RepartitionExec: single  [single]
                      TestSource: t  [unknown(3)]
                after:
                SortExec: [a ASC NULLS LAST]  [single, order=a ASC NULLS LAST]
                  RepartitionExec: single  [single]
                    FilterExec: (b > 2)  [unknown(3)]
                      TestSource: t  [unknown(3)]
                """);
    }

    /** The scan prunes the row groups that statistics rule out; the filter stays, as some kept rows fail it. */
    @Test
    void aParquetScanTakesTheFilterPartlyByPruningRowGroups() {
        ExecutionPlan scan = FileScanExec.create(table, List.of("id", "k", "v"));
        Expr range = Exprs.and(List.of(new Binary(BinaryOp.GT_EQ, new Column("id"), Literal.of(2500L)),
                new Binary(BinaryOp.LT, new Column("id"), Literal.of(4000L))));
        assertThat(plan(new FilterExec(scan, range))).isEqualTo("""
                before:
                FilterExec: ((id >= 2500) AND (id < 4000))  [unknown(4)]
                  FileScanExec: t (parquet, 4 partitions) columns=[id, k, v]  [unknown(4)]
                after:
                FilterExec: ((id >= 2500) AND (id < 4000))  [single]
                  FileScanExec: t (parquet, 1 partitions) columns=[id, k, v] pruning=[(id >= 2500), (id < 4000)]  [single]
                """);
    }

}
