package io.sluice.optimizer;

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

/** Test tables, SQL-built plans and the before/after check every rule test uses. */
final class RuleTesting {
    static final TableSource T = new TableSource("t", FileFormat.PARQUET, "/data/t", Schema.of(
            new Field("k", DataType.UTF8),
            new Field("v", DataType.INT64),
            new Field("d", DataType.decimal(10, 2)),
            new Field("flag", DataType.BOOL)));
    static final TableSource U = new TableSource("u", FileFormat.CSV, "/data/u.csv", Schema.of(
            new Field("k", DataType.UTF8),
            new Field("a", DataType.INT32),
            new Field("x", DataType.FLOAT64)));

    private RuleTesting() {
    }

    static InMemoryCatalog catalog() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.register(T);
        catalog.register(U);
        return catalog;
    }

    /** The unoptimized plan of a query over t(k, v, d, flag) and u(k, a, x). */
    static LogicalPlan sql(String query) {
        return ((Statement.Query) SqlFrontEnd.parse(query, catalog())).plan();
    }

    /**
     * Applies {@code rule} to {@code plan}, prints both plans, and checks both printed plans whole;
     * then checks the rule is done: applied to its own output it returns that very instance.
     */
    static LogicalPlan assertRewrite(LogicalRule rule, LogicalPlan plan, String before, String after) {
        LogicalPlan out = rule.apply(plan);
        System.out.println("== " + rule.name() + " before ==\n" + plan.explain() + "== after ==\n" + out.explain());
        assertThat(plan.explain()).as("plan before").isEqualTo(before);
        assertThat(out.explain()).as("plan after").isEqualTo(after);
        assertThat(out.schema().names()).as("output names").isEqualTo(plan.schema().names());
        assertThat(rule.apply(out)).as("second application changes nothing").isSameAs(out);
        return out;
    }

    /** Checks that the rule finds nothing to do: the same instance comes back. */
    static void assertUnchanged(LogicalRule rule, LogicalPlan plan) {
        LogicalPlan out = rule.apply(plan);
        System.out.println("== " + rule.name() + " leaves alone ==\n" + plan.explain());
        assertThat(out).isSameAs(plan);
    }
}
