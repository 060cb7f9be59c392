package io.sluice.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanJsonTest {
    private static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    static {
        CATALOG.register(new TableSource("orders", FileFormat.PARQUET, "file:///data/orders", new Schema(List.of(
                new Field("o_id", DataType.INT64), new Field("o_cust", DataType.INT64),
                new Field("o_total", DataType.decimal(12, 2)), new Field("o_date", DataType.DATE32),
                new Field("o_note", DataType.UTF8), new Field("o_rate", DataType.FLOAT64)))));
        CATALOG.register(new TableSource("cust", FileFormat.CSV, "file:///data/cust.csv", new Schema(List.of(
                new Field("c_id", DataType.INT64), new Field("c_name", DataType.UTF8), new Field("c_vip", DataType.BOOL))),
                java.util.Map.of("Delimiter", "|", "header", "true")));
    }

    @Test
    void plansRoundTripEqual() {
        for (String sql : List.of(
                "SELECT o_id, o_total * 2 AS t FROM orders WHERE o_note LIKE 'a%' AND o_rate <> 1.5 ORDER BY t DESC LIMIT 5",
                "SELECT c_name, sum(o_total), count(DISTINCT o_note) FROM orders JOIN cust ON o_cust = c_id "
                        + "WHERE o_date >= DATE '1995-01-01' + INTERVAL '3' MONTH GROUP BY c_name HAVING count(*) > 2",
                "SELECT CASE WHEN c_vip THEN 'v' ELSE NULL END, substring(c_name, 2, 3), cast(c_id AS double) FROM cust "
                        + "WHERE c_id IN (1, 2, 3, 4, 5, 6, 7) AND c_name IS NOT NULL",
                "SELECT c_id FROM cust WHERE EXISTS (SELECT 1 FROM orders WHERE o_cust = c_id) "
                        + "AND c_id NOT IN (SELECT o_id FROM orders) UNION ALL SELECT o_id FROM orders",
                "SELECT extract(year FROM o_date), (SELECT max(o_rate) FROM orders) FROM orders o LEFT JOIN cust c ON o.o_cust = c.c_id",
                "SELECT o_cust, rank() OVER (PARTITION BY o_cust ORDER BY o_total DESC), sum(o_rate) OVER (ORDER BY o_date "
                        + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), lag(o_note, 1, 'x') OVER (ORDER BY o_id) FROM orders",
                "SELECT o_cust, o_note, grouping(o_cust), stddev(o_rate), corr(o_rate, o_total) FROM orders "
                        + "GROUP BY ROLLUP (o_cust, o_note)",
                "SELECT date_trunc('month', o_date), o_total > ALL (SELECT o_total FROM orders WHERE o_cust = c_id) FROM orders, cust",
                // decimals of precision 19 to 38: types, and constants past a long
                "SELECT o_total * 123456789012345678901234.5 AS big, CAST(o_total AS DECIMAL(38,6)) AS wide, "
                        + "-98765432109876543210 AS whole FROM orders WHERE o_total < 99999999999999999999.99",
                "SELECT r.id FROM range(-5, 5, -1, 3) AS r JOIN orders ON r.id = o_id")) {
            LogicalPlan plan = ((Statement.Query) SqlFrontEnd.parse(sql, CATALOG)).plan();
            LogicalPlan back = PlanJson.decode(PlanJson.encode(plan));
            assertThat(back).as(sql).isEqualTo(plan);
            assertThat(back.explain()).isEqualTo(plan.explain());
        }
    }

    @Test
    void nestedTypesRoundTripAndScalarTypesNeedNoChildren() {
        DataType nested = DataType.map(DataType.UTF8, DataType.list(DataType.struct(List.of(
                new Field("a", DataType.INT32), new Field("b", DataType.decimal(20, 3))))));
        LogicalPlan plan = new TableScan(new TableSource("n", FileFormat.PARQUET, "file:///data/n", Schema.of(
                new Field("m", nested), new Field("i", DataType.INT64))));
        assertThat(PlanJson.decode(PlanJson.encode(plan))).isEqualTo(plan);
        CATALOG.register(((TableScan) plan).source());
        for (String sql : List.of("SELECT i, x, m['k'], element_at(m['k'], -1).a, m['k'][0].b FROM n LATERAL VIEW OUTER explode(m) v AS k, x",
                "SELECT named_struct('p', i, 'q', array(i, 2)), size(m) FROM n CROSS JOIN UNNEST(m) AS u(k, v) WHERE u.k = 'z'")) {
            LogicalPlan nestedPlan = ((Statement.Query) SqlFrontEnd.parse(sql, CATALOG)).plan();
            assertThat(PlanJson.decode(PlanJson.encode(nestedPlan))).as(sql).isEqualTo(nestedPlan);
        }
        String scalarOnly = "{\"version\":1,\"plan\":{\"@type\":\"EmptyRelation\",\"schema\":{\"@type\":\"Schema\","
                + "\"fields\":[{\"@type\":\"Field\",\"name\":\"x\",\"type\":{\"@type\":\"DataType\",\"kind\":\"INT32\","
                + "\"precision\":0,\"scale\":0}}]}}}";
        assertThat(decode(scalarOnly).schema()).isEqualTo(Schema.of(new Field("x", DataType.INT32)));
        assertThatThrownBy(() -> decode(scalarOnly.replace("\"INT32\"", "\"LIST\""))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("plan.schema.fields[0].type is not a valid DataType: LIST takes 1 child fields, not 0");
    }

    @Test
    void theDocumentIsVersionedJsonNamingTypesBySimpleName() {
        LogicalPlan plan = ((Statement.Query) SqlFrontEnd.parse("SELECT c_id FROM cust WHERE c_vip", CATALOG)).plan();
        String json = new String(PlanJson.encode(plan), StandardCharsets.UTF_8);
        assertThat(json).startsWith("{\"version\":1,\"plan\":{\"@type\":\"Projection\"").contains("\"@type\":\"TableScan\"")
                .doesNotContain("io.sluice");
    }

    @Test
    void anotherVersionIsRefused() {
        assertThatThrownBy(() -> decode("{\"version\":2,\"plan\":{}}")).isInstanceOf(SluiceException.class)
                .hasMessage("unsupported plan version 2 (this coordinator reads version 1)");
        assertThatThrownBy(() -> decode("{\"plan\":{}}")).hasMessageContaining("no integer \"version\"");
    }

    @Test
    void classNamesAndUnknownTypesAreRefused() {
        assertThatThrownBy(() -> decode("{\"version\":1,\"plan\":{\"@type\":\"java.lang.ProcessBuilder\"}}"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("type 'java.lang.ProcessBuilder' is not a LogicalPlan");
        // an expression where a plan must be
        assertThatThrownBy(() -> decode("{\"version\":1,\"plan\":{\"@type\":\"Column\",\"column\":\"x\"}}"))
                .hasMessageContaining("type 'Column' is not a LogicalPlan");
        assertThatThrownBy(() -> decode("{\"version\":1,\"plan\":{\"@type\":\"Limit\",\"input\":null,\"offset\":0,"
                + "\"fetch\":1,\"evil\":1}}")).hasMessageContaining("a Limit has no field 'evil'");
    }

    @Test
    void malformedDocumentsGetCleanErrors() {
        assertThatThrownBy(() -> decode("not json")).isInstanceOf(SluiceException.class).hasMessageContaining("not a JSON document");
        assertThatThrownBy(() -> decode("{\"version\":1,\"plan\":{\"@type\":\"Limit\",\"offset\":\"x\"}}"))
                .hasMessageContaining("plan.offset should be a long");
        assertThatThrownBy(() -> decode("{\"version\":1,\"plan\":{\"@type\":\"Limit\",\"offset\":0,\"fetch\":-5,"
                + "\"input\":{\"@type\":\"EmptyRelation\",\"schema\":{\"@type\":\"Schema\",\"fields\":[]}}}}"))
                .isInstanceOf(SluiceException.class);
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        assertThatThrownBy(() -> decode("{\"version\":1,\"plan\":" + deep + "}")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("not a JSON document");
    }

    private static LogicalPlan decode(String json) {
        return PlanJson.decode(json.getBytes(StandardCharsets.UTF_8));
    }
}
