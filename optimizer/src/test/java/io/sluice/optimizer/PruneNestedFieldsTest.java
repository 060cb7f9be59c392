package io.sluice.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

class PruneNestedFieldsTest {
    private static final DataType S = DataType.struct(List.of(new Field("a", DataType.INT64), new Field("b", DataType.UTF8),
            new Field("c", DataType.FLOAT64), new Field("sub", DataType.struct(List.of(new Field("d", DataType.INT64),
                    new Field("e", DataType.list(DataType.INT64)))))));
    private static final DataType E = DataType.struct(List.of(new Field("p", DataType.INT64), new Field("q", DataType.UTF8),
            new Field("r", DataType.struct(List.of(new Field("u", DataType.INT64), new Field("v", DataType.UTF8))))));
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64), new Field("s", S),
            new Field("xs", DataType.list(DataType.INT64)), new Field("ls", DataType.list(E)),
            new Field("m", DataType.map(DataType.UTF8, E)));

    private static final TableSource N = new TableSource("n", FileFormat.PARQUET, "/data/n", SCHEMA);
    private static final TableSource J = new TableSource("j", FileFormat.JSON, "/data/j", SCHEMA);

    private final PruneNestedFields rule = new PruneNestedFields();

    @Test
    void aParquetScanReadsOnlyTheFieldsReferenced() {
        LogicalPlan out = assertNarrows("SELECT s.a, n.s.sub.d FROM n WHERE s.b = 'x'",
                "STRUCT<a: BIGINT, b: VARCHAR, sub: STRUCT<d: BIGINT>>");
        assertThat(out.explain()).contains("read_schema=[s: STRUCT<a: BIGINT, b: VARCHAR, sub: STRUCT<d: BIGINT>>]");
        assertNarrows("SELECT s.a FROM n UNION ALL SELECT s.a FROM n", "STRUCT<a: BIGINT>"); // both inputs alike
    }

    @Test
    void aFieldReadWholeKeepsAllOfIt() {
        assertNarrows("SELECT s.sub, s.a FROM n", "STRUCT<a: BIGINT, sub: STRUCT<d: BIGINT, e: ARRAY<BIGINT>>>");
        assertNarrows("SELECT k, s.sub.e[0] AS x0 FROM n WHERE s.a > 1", "STRUCT<a: BIGINT, sub: STRUCT<e: ARRAY<BIGINT>>>");
    }

    @Test
    void structsInsideListsAndMapsAreNarrowedToo() {
        LogicalPlan out = assertNarrows("SELECT ls[0].p, element_at(ls, 2).r.u FROM n", "ls",
                "ARRAY<STRUCT<p: BIGINT, r: STRUCT<u: BIGINT>>>");
        assertThat(out.explain()).contains("ls: ARRAY<STRUCT<p: BIGINT, r: STRUCT<u: BIGINT>>>");
        assertNarrows("SELECT transform(ls, x -> x.q), exists(ls, y -> y.p > k) FROM n", "ls", "ARRAY<STRUCT<p: BIGINT, q: VARCHAR>>");
        assertNarrows("SELECT transform(xs, x -> transform(ls, e -> e.r.v)) FROM n", "ls", "ARRAY<STRUCT<r: STRUCT<v: VARCHAR>>>");
        assertNarrows("SELECT k, e.p FROM n LATERAL VIEW explode(ls) t AS e", "ls", "ARRAY<STRUCT<p: BIGINT>>");
        assertNarrows("SELECT k, u FROM (SELECT k, e.r AS r FROM n LATERAL VIEW explode(ls) t AS e) LATERAL VIEW inline(array(r)) w",
                "ls", "ARRAY<STRUCT<r: STRUCT<u: BIGINT, v: VARCHAR>>>");
        assertNarrows("SELECT k, p, r.u FROM n LATERAL VIEW inline(ls) t", "ls",
                "ARRAY<STRUCT<p: BIGINT, q: VARCHAR, r: STRUCT<u: BIGINT>>>"); // inline makes a column of every field
        assertNarrows("SELECT m['a'].q, size(m) FROM n", "m", "MAP<VARCHAR, STRUCT<q: VARCHAR>>");
        assertNarrows("SELECT key, value.p FROM n LATERAL VIEW explode(m) t", "m", "MAP<VARCHAR, STRUCT<p: BIGINT>>");
    }

    @Test
    void elementsUsedWholeKeepTheirStruct() {
        assertUnchanged("SELECT filter(ls, x -> x.p > 1) FROM n");
        assertUnchanged("SELECT k, e FROM n LATERAL VIEW explode(ls) t AS e");
        assertUnchanged("SELECT ls[0], ls[1].p FROM n");
        assertUnchanged("SELECT transform(ls, x -> x) FROM n");
        assertUnchanged("SELECT m['a'], m['b'].q FROM n");
    }

    @Test
    void aBareUseAnywhereKeepsTheWholeStruct() {
        assertUnchanged("SELECT s.a, s FROM n");
        assertUnchanged("SELECT s.a FROM n WHERE s IS NOT NULL");
        assertUnchanged("SELECT k, x.c FROM (SELECT k, s AS x FROM n) WHERE x.a > 1");
        assertUnchanged("SELECT * FROM n");
    }

    @Test
    void otherFormatsAreReadWhole() {
        assertUnchanged("SELECT s.a FROM j");
        // the JSON input keeps its whole struct, so the Parquet one must too: a union's inputs agree on types
        // a DataFrame union of a Parquet read and a JSON read: the JSON input keeps its whole struct, so
        // the Parquet one must too (a union's inputs agree on types)
        LogicalPlan union = new Projection(new Union(List.of(new TableScan(N), new TableScan(J))),
                List.of(new ScalarFunction(ScalarFunction.Function.GET_FIELD, List.of(new Column("s"), Literal.of("a")))));
        assertThat(rule.apply(union)).isSameAs(union);
    }

    private LogicalPlan assertNarrows(String sql, String type) {
        return assertNarrows(sql, "s", type);
    }

    private LogicalPlan assertNarrows(String sql, String column, String type) {
        LogicalPlan plan = plan(sql);
        LogicalPlan out = rule.apply(plan);
        TableScan scan = scan(out);
        assertThat(scan.schema().field(column).type().sqlName()).as(sql).isEqualTo(type);
        assertThat(out.schema().names()).isEqualTo(plan.schema().names());
        assertThat(rule.apply(out)).as("second application changes nothing").isSameAs(out);
        return out;
    }

    private void assertUnchanged(String sql) {
        LogicalPlan plan = plan(sql);
        assertThat(rule.apply(plan)).as(sql).isSameAs(plan);
    }

    private static TableScan scan(LogicalPlan plan) {
        if (plan instanceof TableScan scan) {
            return scan;
        }
        return scan(plan.children().get(0));
    }

    private static LogicalPlan plan(String query) {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.register(N);
        catalog.register(J);
        return ((Statement.Query) SqlFrontEnd.parse(query, catalog)).plan();
    }
}
