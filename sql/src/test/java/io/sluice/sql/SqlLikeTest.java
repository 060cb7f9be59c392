package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Like;
import io.sluice.operators.expr.ExprBinder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** LIKE is the one expression the SQL front end added, so it is evaluated here as well as planned. */
class SqlLikeTest {
    @Test
    void planned() {
        assertThat(plan("SELECT k FROM t WHERE k LIKE 'a%' AND k NOT LIKE '%b_' AND k ILIKE '%X%'")).isEqualTo("""
                Projection: k
                  Filter: ((k LIKE 'a%' AND k NOT LIKE '%b_') AND k ILIKE '%X%')
                    TableScan: t
                """);
    }

    @Test
    void evaluated() {
        Schema schema = Schema.of(new Field("s", DataType.UTF8));
        String[] values = {"apple", "banana", null, "a.b", "A%b", "ab\nc", ""};
        boolean[] nulls = {false, false, true, false, false, false, false};
        try (BufferAllocator allocator = new RootAllocator();
                Batch batch = Batch.of(schema, new Col[] {Col.ofStrings(values, nulls)}, values.length, allocator)) {
            assertThat(eval(new Like(new Column("s"), "a%", false, false), batch))
                    .containsExactly(true, false, null, true, false, true, false);
            assertThat(eval(new Like(new Column("s"), "a_b", false, true), batch))
                    .containsExactly(false, false, null, true, true, false, false);
            assertThat(eval(new Like(new Column("s"), "%an%", true, false), batch))
                    .containsExactly(true, false, null, true, true, true, true);
            assertThat(eval(new Like(new Column("s"), "", false, false), batch))
                    .containsExactly(false, false, null, false, false, false, true);
            assertThat(eval(new Like(new Column("s"), "a.%", false, false), batch))
                    .containsExactly(false, false, null, true, false, false, false);
        }
    }

    private static List<Boolean> eval(Like like, Batch batch) {
        Col out = ExprBinder.bind(like, batch.schema()).evaluate(batch);
        List<Boolean> values = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            values.add(out.isNull(i) ? null : out.bools[i]);
        }
        return values;
    }
}
