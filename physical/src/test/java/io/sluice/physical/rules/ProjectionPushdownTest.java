package io.sluice.physical.rules;

import static io.sluice.physical.PhysicalRuleTesting.beforeAfter;
import static io.sluice.physical.PhysicalRuleTesting.source;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.FileScanExec;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.physical.TestSource;
import io.sluice.testfixtures.ParquetFixtures;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ProjectionPushdown} alone. */
class ProjectionPushdownTest {
    private static final ProjectionPushdown RULE = new ProjectionPushdown();

    @TempDir
    static Path dir;

    private static TableSource table;

    @BeforeAll
    static void files() throws Exception {
        table = FileFormats.register("t", FileFormat.PARQUET, ParquetFixtures.write(dir, "t",
                "SELECT range AS id, range % 7 AS k, range * 2 AS v FROM range(3000)"));
    }

    private static String plan(ExecutionPlan plan) {
        return beforeAfter(RULE, plan).replace(dir.toString(), "DIR");
    }

    @Test
    void aColumnOnlyProjectionBecomesTheScansColumnList() {
        ExecutionPlan scan = FileScanExec.create(table, List.of("id", "k", "v"));
        assertThat(plan(new ProjectionExec(scan, List.of(new Column("v"), new Column("id"))))).isEqualTo("""
                before:
                ProjectionExec: v, id  [unknown(2)]
                  FileScanExec: t (parquet, 2 partitions) columns=[id, k, v]  [unknown(2)]
                after:
                FileScanExec: t (parquet, 2 partitions) columns=[v, id]  [unknown(2)]
                """);
    }

    @Test
    void aColumnOnlyProjectionGoesBelowARepartitionKeepingItsKeyAndOnIntoTheScan() {
        ExecutionPlan scan = FileScanExec.create(table, List.of("id", "k", "v"));
        ExecutionPlan exchange = new RepartitionExec(scan, new Partitioning.Hash(List.of(new Column("k")), 4));
        assertThat(plan(new ProjectionExec(exchange, List.of(new Column("k"), new Column("v"))))).isEqualTo("""
                before:
                ProjectionExec: k, v  [hash([k], 4)]
                  RepartitionExec: hash([k], 4)  [hash([k], 4)]
                    FileScanExec: t (parquet, 2 partitions) columns=[id, k, v]  [unknown(2)]
                after:
                RepartitionExec: hash([k], 4)  [hash([k], 4)]
                  FileScanExec: t (parquet, 2 partitions) columns=[k, v]  [unknown(2)]
                """);
    }

    @Test
    void aProjectionDroppingTheHashKeyStaysAboveTheRepartition() {
        ExecutionPlan input = source("t", PlanProperties.of(new Partitioning.Unknown(2)), "k", "v");
        ExecutionPlan exchange = new RepartitionExec(input, new Partitioning.Hash(List.of(new Column("k")), 4));
        assertThat(plan(new ProjectionExec(exchange, List.of(new Column("v"))))).isEqualTo("""
                before:
                ProjectionExec: v  [unknown(4)]
                  RepartitionExec: hash([k], 4)  [hash([k], 4)]
                    TestSource: t  [unknown(2)]
                after:
                ProjectionExec: v  [unknown(4)]
                  RepartitionExec: hash([k], 4)  [hash([k], 4)]
                    TestSource: t  [unknown(2)]
                """);
    }

    @Test
    void aComputingProjectionStays() {
        ExecutionPlan scan = FileScanExec.create(table, List.of("id", "v"));
        List<Expr> exprs = List.of(new Column("id"), new Binary(BinaryOp.ADD, new Column("v"), Literal.of(1L)));
        assertThat(plan(new ProjectionExec(scan, exprs))).isEqualTo("""
                before:
                ProjectionExec: id, (v + 1)  [unknown(2)]
                  FileScanExec: t (parquet, 2 partitions) columns=[id, v]  [unknown(2)]
                after:
                ProjectionExec: id, (v + 1)  [unknown(2)]
                  FileScanExec: t (parquet, 2 partitions) columns=[id, v]  [unknown(2)]
                """);
    }
}
