package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.logical;
import static io.sluice.sql.SqlTestTables.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.Projection;
import io.sluice.operators.expr.ExprBinder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** CASE is an expression the SQL front end added, so it is evaluated here as well as planned. */
class SqlCaseTest {
    @Test
    void searchedAndSimpleCase() {
        assertThat(plan("""
                SELECT CASE WHEN v > 10 THEN 'big' WHEN v > 0 THEN 'small' END AS size,
                       CASE k WHEN 'a' THEN 1 WHEN 'b' THEN 2 ELSE 0 END AS code
                FROM t""")).isEqualTo("""
                Projection: CASE WHEN (v > 10) THEN 'big' WHEN (v > 0) THEN 'small' END AS size, CASE WHEN (k = 'a') THEN 1 WHEN (k = 'b') THEN 2 ELSE 0 END AS code
                  TableScan: t
                """);
    }

    @Test
    void caseInsideAnAggregate() {
        assertThat(plan("SELECT k, sum(CASE WHEN flag THEN d ELSE 0 END) AS s FROM t GROUP BY k")).isEqualTo("""
                Projection: k, sum(CASE WHEN flag THEN d ELSE 0 END) AS s
                  Aggregate: groupBy=[k], aggr=[sum(CASE WHEN flag THEN d ELSE 0 END)]
                    TableScan: t
                """);
    }

    @Test
    void resultTypesWiden() {
        assertThat(logical("SELECT CASE WHEN flag THEN d ELSE v END AS x, CASE WHEN flag THEN 1.5e0 ELSE v END AS y,"
                + " CASE WHEN flag THEN NULL ELSE 'z' END AS z FROM t").schema().fields()).containsExactly(
                new Field("x", DataType.decimal(20, 2)), new Field("y", DataType.FLOAT64), new Field("z", DataType.UTF8));
    }

    @Test
    void evaluated() {
        Schema schema = SqlTestTables.T.schema();
        int n = 4;
        Col k = Col.ofStrings(new String[] {"a", "b", "c", null}, new boolean[] {false, false, false, true});
        Col v = Col.ofLongs(DataType.INT64, new long[] {20, 5, -1, 7}, null);
        Col d = Col.ofLongs(DataType.decimal(10, 2), new long[] {150, 250, 350, 0}, new boolean[] {false, false, false, true});
        Col day = Col.ofLongs(DataType.DATE32, new long[n], null);
        Col flag = Col.ofBools(new boolean[] {true, false, true, false}, new boolean[] {false, false, true, false});
        Projection p = (Projection) logical("""
                SELECT CASE WHEN v > 10 THEN 'big' WHEN v > 0 THEN 'small' END AS size,
                       CASE k WHEN 'a' THEN 1 WHEN 'b' THEN 2 ELSE 0 END AS code,
                       CASE WHEN flag THEN d ELSE v END AS mixed
                FROM t""");
        try (BufferAllocator allocator = new RootAllocator();
                Batch batch = Batch.of(schema, new Col[] {k, v, d, day, flag}, n, allocator)) {
            assertThat(values(p.exprs().get(0), batch)).containsExactly("big", "small", null, "small");
            assertThat(values(p.exprs().get(1), batch)).containsExactly(1L, 2L, 0L, 0L);
            // decimal(18,2) held unscaled: 1.50, 5.00, -1.00 (flag NULL takes ELSE), 7.00
            assertThat(values(p.exprs().get(2), batch)).containsExactly(150L, 500L, -100L, 700L);
        }
    }

    private static List<Object> values(Expr e, Batch batch) {
        Col out = ExprBinder.bind(e, batch.schema()).evaluate(batch);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            values.add(out.isNull(i) ? null : switch (out.type.kind()) {
                case UTF8 -> out.strings[i];
                case BOOL -> out.bools[i];
                case FLOAT64 -> out.doubles[i];
                default -> out.longs[i];
            });
        }
        return values;
    }
}
