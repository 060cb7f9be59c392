package io.sluice.physical;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.sort.SortExec;
import io.sluice.physical.rules.PhysicalConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The physical optimizer as a policy engine over operators' answers, shown on plans printed whole. */
class PhysicalOptimizerTest {
    private static final PhysicalConfig CONFIG = new PhysicalConfig(4);
    private static final Schema SCHEMA = Schema.of(new Field("a", DataType.INT64), new Field("b", DataType.UTF8));

    private static ExecutionPlan source(Partitioning partitioning, List<SortKey> ordering) {
        return new TestSource("t", SCHEMA, PlanProperties.of(partitioning, ordering));
    }

    private static String optimize(ExecutionPlan plan) {
        ExecutionPlan once = PhysicalOptimizer.standard().optimize(plan, CONFIG);
        ExecutionPlan twice = PhysicalOptimizer.standard().optimize(once, CONFIG);
        assertThat(twice.explain()).as("optimizing twice changes nothing").isEqualTo(once.explain());
        return once.explain();
    }

    @Test
    void unknownOperatorGetsExactlyOneRepartitionAndOneSortFromItsAnswers() {
        ExecutionPlan plan = new KeyedSortedTestOperator(source(new Partitioning.Unknown(3), List.of()), "a", "b");
        assertThat(optimize(plan)).isEqualTo("""
                KeyedSortedTestOperator: key=a, sort=b  [hash([a], 4)]
                  SortExec: [b ASC NULLS LAST], preserve_partitioning  [hash([a], 4), order=b ASC NULLS LAST]
                    RepartitionExec: hash([a], 4)  [hash([a], 4)]
                      TestSource: t  [unknown(3)]
                """);
    }

    @Test
    void requirementsAlreadyMetInsertNothing() {
        ExecutionPlan input = source(new Partitioning.Hash(List.of(new Column("a")), 8),
                List.of(SortKey.asc(new Column("b"))));
        assertThat(optimize(new KeyedSortedTestOperator(input, "a", "b"))).isEqualTo("""
                KeyedSortedTestOperator: key=a, sort=b  [hash([a], 8)]
                  TestSource: t  [hash([a], 8), order=b ASC NULLS LAST]
                """);
    }

    @Test
    void orderingOnAColumnFixedByAFilterNeedsNoSort() {
        ExecutionPlan filtered = new io.sluice.operators.filter.FilterExec(
                source(new Partitioning.Hash(List.of(new Column("a")), 4), List.of()),
                new io.sluice.logical.expr.Binary(io.sluice.common.types.BinaryOp.EQ, new Column("b"),
                        io.sluice.logical.expr.Literal.of("x")));
        assertThat(optimize(new KeyedSortedTestOperator(filtered, "a", "b"))).isEqualTo("""
                KeyedSortedTestOperator: key=a, sort=b  [hash([a], 4)]
                  FilterExec: (b = 'x')  [hash([a], 4)]
                    TestSource: t  [hash([a], 4)]
                """);
    }

    @Test
    void sortOverSortedInputDisappears() {
        List<SortKey> byA = List.of(SortKey.asc(new Column("a")));
        ExecutionPlan plan = new SortExec(new SortExec(source(new Partitioning.Unknown(2), List.of()), byA,
                SortExec.NO_FETCH, false), byA, SortExec.NO_FETCH, false);
        assertThat(optimize(plan)).isEqualTo("""
                SortExec: [a ASC NULLS LAST]  [single, order=a ASC NULLS LAST]
                  RepartitionExec: single  [single]
                    TestSource: t  [unknown(2)]
                """);
    }

    @Test
    void noRuleBranchesOnAnOperatorClass() throws IOException {
        Path rules = Path.of("src/main/java/io/sluice/physical/rules");
        Pattern classTest = Pattern.compile("instanceof\\s+\\w*Exec\\b|getClass\\(\\)|\\.class\\s*==|isInstance\\(");
        try (Stream<Path> files = Files.list(rules)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (file.getFileName().toString().equals("PhysicalPlanner.java")) {
                    continue; // maps logical nodes to operators; it is not a rule
                }
                Matcher m = classTest.matcher(Files.readString(file));
                assertThat(m.find()).as(file + " branches on a class" + (m.hitEnd() ? "" : ": " + m.group())).isFalse();
            }
        }
    }
}
