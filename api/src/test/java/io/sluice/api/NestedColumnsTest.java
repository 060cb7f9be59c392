package io.sluice.api;

import static io.sluice.api.Functions.aggregate;
import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.elementAt;
import static io.sluice.api.Functions.exists;
import static io.sluice.api.Functions.explode;
import static io.sluice.api.Functions.explodeOuter;
import static io.sluice.api.Functions.filter;
import static io.sluice.api.Functions.inline;
import static io.sluice.api.Functions.inlineOuter;
import static io.sluice.api.Functions.lit;
import static io.sluice.api.Functions.posexplode;
import static io.sluice.api.Functions.posexplodeOuter;
import static io.sluice.api.Functions.size;
import static io.sluice.api.Functions.transform;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.kernels.QueryResult;
import io.sluice.testfixtures.DuckDbOracle;
import java.sql.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Nested columns (STRUCT, LIST, MAP) end to end on an embedded cluster against DuckDB over the same
 * DuckDB-written Parquet files: field and element access, sizes, explode, aggregates over nested
 * fields, and nested values carried through shuffles, joins and sorts. Where the dialects differ
 * (Spark's {@code a[i]} counts from 0, DuckDB's from 1) each side gets its own spelling.
 */
class NestedColumnsTest extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("n", """
                SELECT i AS id, i % 5 AS g,
                       CASE WHEN i % 11 = 0 THEN NULL
                            ELSE {'a': i::INTEGER, 'b': 'x' || (i % 7), 'sub': {'d': i * 2, 'e': [i % 3, NULL]}} END AS s,
                       CASE WHEN i % 9 = 0 THEN NULL ELSE list_transform(range(i % 4), x -> x + i) END AS xs,
                       MAP(['k' || (i % 3), 'z'], [i, i * 10]) AS m,
                       [{'p': i % 3, 'q': 'q' || i}, {'p': 7, 'q': NULL}] AS ls
                FROM range(0, 300) t(i)""", 3), new DuckDbComparison.Table("deep", """
                SELECT i AS id,
                       CASE WHEN i % 13 = 0 THEN NULL WHEN i % 13 = 1 THEN [] ELSE list_transform(range((i % 3) + 1),
                            k -> CASE WHEN (i + k) % 4 = 0 THEN NULL
                                      ELSE {'p': CASE WHEN k = 1 THEN NULL ELSE i * 10 + k END,
                                            'q': CASE WHEN i % 5 = 0 THEN NULL
                                                      ELSE {'u': (i % 5)::INTEGER, 'v': CASE WHEN i % 6 = 0 THEN NULL ELSE 'v' || i END} END} END) END AS ls,
                       CASE WHEN i % 11 = 0 THEN NULL WHEN i % 11 = 1 THEN MAP {}::MAP(VARCHAR, STRUCT(x BIGINT, y BIGINT[]))
                            ELSE MAP {'a': {'x': i, 'y': [i, NULL]}, 'b': NULL} END AS mm,
                       CASE WHEN i % 17 = 0 THEN NULL ELSE [CASE WHEN i % 2 = 0 THEN NULL ELSE range(i % 3) END, [], [i]] END AS ll,
                       CASE WHEN i = 5 THEN range(300000) ELSE [i] END AS big
                FROM range(0, 200) t(i)""", 2, 40));
    }

    /**
     * The Arrow read path over every level: NULL structs, lists, maps, elements and fields, empty
     * lists and maps, lists of lists, a list spanning pages, row groups of 40 rows.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            SELECT id, ls, mm, ll FROM deep | SELECT id, ls, mm, ll FROM deep
            SELECT id, ls[0].p, ls[1].q.v, ls[2].q, size(ls) FROM deep | SELECT id, ls[1].p, ls[2].q.v, ls[3].q, len(ls) FROM deep
            SELECT id, e.p, e.q.u, e.q.v FROM deep LATERAL VIEW explode(ls) t AS e | SELECT id, e.p, e.q.u, e.q.v FROM (SELECT id, unnest(ls) AS e FROM deep)
            SELECT sum(e.p), count(e.q.v), count(*) FROM deep LATERAL VIEW explode(ls) t AS e | SELECT sum(e.p), count(e.q.v), count(*) FROM (SELECT unnest(ls) AS e FROM deep)
            SELECT id, transform(ls, x -> x.q.v), transform(ls, x -> x.p + id) FROM deep | SELECT id, list_transform(ls, x -> x.q.v), list_transform(ls, x -> x.p + id) FROM deep
            SELECT id, mm['a'].x, mm['a'].y[1], mm['b'], size(mm) FROM deep | SELECT id, mm['a'].x, mm['a'].y[2], mm['b'], cardinality(mm) FROM deep
            SELECT id, key, value.x, value.y FROM deep LATERAL VIEW explode(mm) t | SELECT id, k, v.x, v.y FROM (SELECT id, unnest(map_keys(mm)) AS k, unnest(map_values(mm)) AS v FROM deep)
            SELECT id, ll[0], ll[1], ll[2][0], size(ll) FROM deep | SELECT id, ll[1], ll[2], ll[3][1], len(ll) FROM deep
            SELECT id, size(big), big[299999], big[0] FROM deep | SELECT id, len(big), big[300000], big[1] FROM deep
            """)
    void deeplyNestedValuesReadAsDuckDbReadsThem(String sluice, String duckDb) throws Exception {
        assertSame(sluice, duckDb);
    }

    /** A struct inside a list or a map is read with only the fields used ({@code read_schema}), and answers as before. */
    @Test
    void structsInListsAndMapsReadOnlyTheFieldsUsed() throws Exception {
        String query = "SELECT id, e.q.v, mm['a'].x FROM deep LATERAL VIEW explode(ls) t AS e";
        assertThat(String.valueOf(both.session().sql("EXPLAIN " + query).collect().rows()))
                .contains("ls: ARRAY<STRUCT<q: STRUCT<v: VARCHAR>>>").contains("mm: MAP<VARCHAR, STRUCT<x: BIGINT>>");
        assertSame(query, "SELECT id, e.q.v, mm['a'].x FROM (SELECT id, mm, unnest(ls) AS e FROM deep)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            SELECT id, s.a, s.b, s.sub.d, n.s.sub.e[0] FROM n | SELECT id, s.a, s.b, s.sub.d, s.sub.e[1] FROM n
            SELECT id, xs[0], xs[2], element_at(xs, 1), element_at(xs, -1), size(xs), cardinality(xs) AS c FROM n | SELECT id, xs[1], xs[3], xs[1], xs[-1], len(xs), len(xs) FROM n
            SELECT id, m['z'], m['k1'], element_at(m, 'k2'), size(m) FROM n | SELECT id, m['z'], m['k1'], m['k2'], cardinality(m) FROM n
            SELECT id, ls[0].q, ls[1].p, ls[1].q FROM n | SELECT id, ls[1].q, ls[2].p, ls[2].q FROM n
            SELECT s.b, count(*), sum(s.a), max(xs[0]), sum(m['z']) FROM n GROUP BY s.b | SELECT s.b, count(*), sum(s.a), max(xs[1]), sum(m['z']) FROM n GROUP BY s.b
            SELECT id FROM n WHERE s.a > 100 AND m['z'] < 2000 AND size(xs) > 1 | SELECT id FROM n WHERE s.a > 100 AND m['z'] < 2000 AND len(xs) > 1
            SELECT id, named_struct('u', id, 'v', s.b).v, array(id, g, 7)[1], map('a', id)['a'], struct(id, g).g FROM n | SELECT id, s.b, g, id, g FROM n
            SELECT id, explode(xs) AS x FROM n | SELECT id, unnest(xs) AS x FROM n
            SELECT id, x FROM n LATERAL VIEW explode(xs) t AS x WHERE g < 3 | SELECT id, unnest(xs) AS x FROM n WHERE g < 3
            SELECT id, t.x FROM n LATERAL VIEW OUTER explode(xs) t AS x | SELECT id, t.x FROM n LEFT JOIN LATERAL (SELECT unnest(n.xs) AS x) t ON true
            SELECT id, explode_outer(xs) FROM n | SELECT id, t.x FROM n LEFT JOIN LATERAL (SELECT unnest(n.xs) AS x) t ON true
            SELECT id, key, value FROM n LATERAL VIEW explode(m) t | SELECT id, unnest(map_keys(m)), unnest(map_values(m)) FROM n
            SELECT x, count(*), sum(id) FROM n CROSS JOIN UNNEST(xs) AS u(x) GROUP BY x | SELECT x, count(*), sum(id) FROM n, unnest(xs) AS u(x) GROUP BY x
            SELECT id, e.q, e.p FROM n LATERAL VIEW explode(ls) t AS e WHERE e.p = 7 | SELECT id, e.q, e.p FROM (SELECT id, unnest(ls) AS e FROM n) WHERE e.p = 7
            SELECT g, count(*) FROM n LATERAL VIEW explode(xs) a AS x LATERAL VIEW explode(ls) b AS y GROUP BY g | SELECT g, count(*) FROM n, unnest(xs) AS a(x), unnest(ls) AS b(y) GROUP BY g
            SELECT id, transform(xs, x -> x * 2 + id), transform(xs, (x, i) -> x * i), filter(xs, x -> x % 2 = 0) FROM n | SELECT id, list_transform(xs, x -> x * 2 + id), list_transform(xs, (x, i) -> x * (i - 1)), list_filter(xs, x -> x % 2 = 0) FROM n
            SELECT id, exists(xs, x -> x > 200), forall(xs, x -> x >= id), zip_with(xs, xs, (x, y) -> x * y) FROM n | SELECT id, len(list_filter(xs, x -> x > 200)) > 0, len(list_filter(xs, x -> x < id)) = 0, list_transform(xs, x -> x * x) FROM n
            SELECT id, aggregate(xs, 0, (acc, x) -> acc + x), aggregate(xs, 1, (acc, x) -> acc + x, acc -> acc * g) FROM n | SELECT id, CASE WHEN xs IS NOT NULL THEN coalesce(list_sum(xs), 0)::BIGINT END, CASE WHEN xs IS NOT NULL THEN ((1 + coalesce(list_sum(xs), 0)) * g)::BIGINT END FROM n
            SELECT id, transform(ls, e -> e.p + id), transform(xs, x -> transform(ls, e -> e.p * x)) FROM n WHERE g < 2 | SELECT id, list_transform(ls, e -> e.p + id), list_transform(xs, x -> list_transform(ls, e -> e.p * x)) FROM n WHERE g < 2
            SELECT id, pos, col FROM n LATERAL VIEW posexplode(xs) t | SELECT id, generate_subscripts(xs, 1) - 1, unnest(xs) FROM n
            SELECT id, posexplode(m) FROM n | SELECT id, generate_subscripts(map_keys(m), 1) - 1, unnest(map_keys(m)), unnest(map_values(m)) FROM n
            SELECT id, p, q FROM n LATERAL VIEW inline(ls) t WHERE g = 1 | SELECT id, e.p, e.q FROM (SELECT id, g, unnest(ls) AS e FROM n) WHERE g = 1
            SELECT g, count(*), size(collect_list(s)), size(collect_list(xs)) FROM n GROUP BY g | SELECT g, count(*), len(list(s) FILTER (WHERE s IS NOT NULL)), len(list(xs) FILTER (WHERE xs IS NOT NULL)) FROM n GROUP BY g
            """)
    void sameAsDuckDb(String sluice, String duckDb) throws Exception {
        assertSame(sluice, duckDb);
    }

    /** Whole nested values, through a shuffle (grouped on a scalar), a join and a sort, as payload. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            SELECT id, s, xs, m, ls FROM n
            SELECT x.g, x.c, y.id, y.s, y.m FROM (SELECT g, count(*) AS c FROM n GROUP BY g) x JOIN n y ON x.g = y.g
            SELECT a.id, b.xs, b.ls, a.s FROM n a JOIN n b ON a.id = b.id + 1 WHERE a.g < 3
            SELECT id, s, xs FROM n ORDER BY g, id DESC LIMIT 50
            """)
    void nestedValuesSurviveShufflesJoinsAndSorts(String sql) throws Exception {
        assertSame(sql, sql);
    }

    @Test
    void nestedValuesAreNoKeysNorComparable() {
        Session session = both.session();
        assertThatThrownBy(() -> session.sql("SELECT xs, count(*) FROM n GROUP BY xs").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("xs").hasMessageContaining("ARRAY<BIGINT>");
        assertThatThrownBy(() -> session.sql("SELECT id FROM n ORDER BY s").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("STRUCT<");
        assertThatThrownBy(() -> session.sql("SELECT a.id FROM n a JOIN n b ON a.m = b.m").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("MAP<VARCHAR, BIGINT>");
        assertThatThrownBy(() -> session.sql("SELECT s.nope FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("no field 'nope'").hasMessageContaining("STRUCT<a: INTEGER");
        assertThatThrownBy(() -> session.sql("SELECT id.x FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("cannot read field 'x'");
        assertThatThrownBy(() -> session.sql("SELECT element_at(xs, 0) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("indices start at 1");
        assertThatThrownBy(() -> session.sql("SELECT explode(id) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("explode() needs an ARRAY or a MAP, not BIGINT");
        assertThatThrownBy(() -> session.sql("SELECT transform(xs, (a, b, c) -> a) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("transform(): the lambda function")
                .hasMessageContaining("takes 1 or 2 arguments, not 3");
        assertThatThrownBy(() -> session.sql("SELECT filter(id, x -> x > 0) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("filter(): argument 1 must be an ARRAY, not BIGINT (id)");
        assertThatThrownBy(() -> session.sql("SELECT transform_values(xs, (k, v) -> v) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("transform_values(): argument 1 must be a MAP");
        assertThatThrownBy(() -> session.sql("SELECT exists(xs, x -> x + 1) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("exists(): the lambda function")
                .hasMessageContaining("must give a BOOLEAN, not BIGINT");
        assertThatThrownBy(() -> session.sql("SELECT transform(xs, x -> y) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("'y'");
        assertThatThrownBy(() -> session.sql("SELECT upper(x -> x) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("only valid as an argument of a higher-order function");
        assertThatThrownBy(() -> session.sql("SELECT * FROM n LATERAL VIEW json_tuple(xs) v").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("not 'json_tuple'");
        assertThatThrownBy(() -> session.sql("SELECT id, inline(xs) FROM n").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("inline() needs an ARRAY of STRUCTs, not ARRAY<BIGINT> (n.xs)");
        assertThatThrownBy(() -> session.sql("SELECT id, p FROM n LATERAL VIEW posexplode(xs) t AS p").collect())
                .isInstanceOf(SluiceException.class).hasMessageContaining("t names 1 column, but it makes 2");
        assertThat(session.sql("ANALYZE TABLE n COMPUTE STATISTICS FOR ALL COLUMNS").collect().rows().get(0).get(0))
                .isEqualTo("analyzed table n: 300 rows, columns id, g, s, xs, m, ls");
        assertThat(session.sql("SELECT count(*) FROM n").collect().rows()).containsExactly(List.of(300L));
    }

    /** Nested values as payload of an aggregate's groups: first() and collect_list() of whole structs, lists and maps. */
    @Test
    void aggregatesCarryWholeNestedValues() throws Exception {
        assertSame("SELECT id, first(s), first(xs), collect_list(m), collect_list(ls) FROM n GROUP BY id",
                "SELECT id, first(s), first(xs), list(m), list(ls) FROM n GROUP BY id");
    }

    /** A scan reads only the struct fields a query reaches ({@code PruneNestedFields}), and answers as before. */
    @Test
    void aScanReadsOnlyTheStructFieldsUsed() throws Exception {
        String query = "SELECT id, s.sub.d FROM n WHERE s.a > 100";
        assertThat(String.valueOf(both.session().sql("EXPLAIN " + query).collect().rows()))
                .contains("read_schema=[s: STRUCT<a: INTEGER, sub: STRUCT<d: BIGINT>>]");
        assertSame(query, query);
        assertThat(String.valueOf(both.session().sql("EXPLAIN SELECT s.a, s FROM n").collect().rows())).doesNotContain("read_schema");
    }

    @Test
    void theDataFrameApiReachesIntoNestedValues() throws Exception {
        DataFrame n = both.session().read().parquet(data.resolve("n").toString());
        QueryResult fields = n.filter(col("s.a").gt(290)).select(col("id"), col("s.sub.d"), col("s").getField("b"),
                col("xs").getItem(0), elementAt(col("xs"), -1), size(col("m")), col("m").getItem("z")).collect();
        assertThat(fields.schema().names()).containsExactly("id", "d", "b", "xs[0]", "element_at(xs, -1)", "size(m)", "m['z']");
        assertThat(normalize(fields.rows())).containsExactlyInAnyOrderElementsOf(normalize(both.duck().queryRaw(
                "SELECT id, s.sub.d, s.b, xs[1], xs[-1], cardinality(m), m['z'] FROM n WHERE s.a > 290")));
        QueryResult exploded = n.select(col("id"), explode(col("xs")).as("x")).filter(col("x").gt(250)).collect();
        assertThat(normalize(exploded.rows())).containsExactlyInAnyOrderElementsOf(normalize(both.duck().queryRaw(
                "SELECT * FROM (SELECT id, unnest(xs) AS x FROM n) WHERE x > 250")));
        QueryResult lambdas = n.filter(col("g").lt(2)).select(col("id"), transform(col("xs"), x -> x.plus(col("id"))),
                filter(col("xs"), (x, i) -> i.gt(0)), aggregate(col("xs"), lit(0), (acc, x) -> acc.plus(x), acc -> acc.multiply(2)),
                exists(col("xs"), x -> x.gt(250)), transform(col("ls"), e -> e.getField("p"))).collect();
        assertThat(normalize(lambdas.rows())).containsExactlyInAnyOrderElementsOf(normalize(both.duck().queryRaw(
                "SELECT id, list_transform(xs, x -> x + id), list_filter(xs, (x, i) -> i > 1), CASE WHEN xs IS NOT NULL"
                        + " THEN (coalesce(list_sum(xs), 0) * 2)::BIGINT END, len(list_filter(xs, x -> x > 250)) > 0,"
                        + " list_transform(ls, e -> e.p) FROM n WHERE g < 2")));
        QueryResult entries = n.select(explodeOuter(col("m")), col("id")).filter(col("id").lt(3)).collect();
        assertThat(entries.schema().names()).containsExactly("key", "value", "id");
        assertThat(entries.rows()).hasSize(6);
        QueryResult positions = n.select(col("id"), posexplodeOuter(col("xs"))).filter(col("id").isin(0, 1, 9)).collect();
        assertThat(positions.schema().names()).containsExactly("id", "pos", "col");
        assertThat(positions.rows()).containsExactlyInAnyOrder(Arrays.asList(0L, null, null), List.of(1L, 0, 1L),
                Arrays.asList(9L, null, null));
        QueryResult structs = n.filter(col("id").lt(2)).select(col("id"), inline(col("ls"))).collect();
        assertThat(structs.schema().names()).containsExactly("id", "p", "q");
        assertThat(structs.rows()).containsExactlyInAnyOrder(List.of(0L, 0L, "q0"), Arrays.asList(0L, 7L, null),
                List.of(1L, 1L, "q1"), Arrays.asList(1L, 7L, null));
        assertThat(n.select(posexplode(col("m"))).collect().schema().names()).containsExactly("pos", "key", "value");
        assertThat(n.select(inlineOuter(col("ls"))).collect().rows()).hasSize(600);
    }

    /**
     * Spark 4.2-written files (by {@code bench/spark-peer}'s SparkNestedWriter), in Spark's standard
     * layout and in its legacy one (2-level lists): the same answers as DuckDB on the same files.
     */
    @ParameterizedTest
    @CsvSource({"standard", "legacy"})
    void sparkWrittenNestedFilesReadAsDuckDbReadsThem(String layout) throws Exception {
        String dir = java.nio.file.Path.of(NestedColumnsTest.class.getResource("/spark-nested/" + layout).toURI()).toString();
        String table = "spark_" + layout;
        both.session().sql("CREATE EXTERNAL TABLE " + table + " STORED AS PARQUET LOCATION '" + dir + "'");
        both.duck().execute("CREATE OR REPLACE VIEW " + table + " AS SELECT * FROM read_parquet('" + dir + "/*.parquet')");
        assertThat(both.session().sql("SELECT * FROM " + table).collect().schema().toString()).isEqualTo("[id: int64, "
                + "s: struct<a: int32, b: utf8, sub: struct<d: int64, e: list<int64>>>, xs: list<int64>, m: map<utf8, int64>, "
                + "ls: list<struct<p: int64, q: utf8>>]");
        assertSame("SELECT id, s.a, s.b, s.sub.d, s.sub.e[0], s.sub.e[1] FROM " + table,
                "SELECT id, s.a, s.b, s.sub.d, s.sub.e[1], s.sub.e[2] FROM " + table);
        assertSame("SELECT id, xs[0], size(xs), m['z'], m['k1'], ls[1].q, ls[0].p FROM " + table,
                "SELECT id, xs[1], len(xs), m['z'], m['k1'], ls[2].q, ls[1].p FROM " + table);
        assertSame("SELECT id, x FROM " + table + " LATERAL VIEW explode(xs) v AS x", "SELECT id, unnest(xs) FROM " + table);
        assertSame("SELECT id, s, xs, m, ls FROM " + table, "SELECT id, s, xs, m, ls FROM " + table);
    }

    /** Nested columns written as Parquet groups read back the same in DuckDB and here; CSV refuses them, naming the column. */
    @Test
    void nestedColumnsRoundTripThroughParquetIntoDuckDb() throws Exception {
        Session session = both.session();
        String out = data.resolve("written").toString();
        DataFrame df = session.sql("SELECT id, s, xs, m, ls, named_struct('pair', array(id, g), 'tags', map('t', s.b)) AS made FROM n");
        assertThat(df.write().parquet(out)).isEqualTo(300);
        String columns = "id, s, xs, m, ls";
        List<List<Object>> expected = normalize(both.duck().queryRaw("SELECT " + columns + " FROM n"));
        List<List<Object>> inDuckDb = normalize(both.duck().queryRaw("SELECT " + columns + " FROM read_parquet('" + out + "/*.parquet')"));
        assertThat(DuckDbOracle.sorted(inDuckDb)).isEqualTo(DuckDbOracle.sorted(expected));
        assertThat(normalize(both.duck().queryRaw("SELECT made.pair[2], made.tags['t'] FROM read_parquet('" + out
                + "/*.parquet') WHERE id = 13"))).containsExactly(List.of(3L, "x6"));
        List<List<Object>> readBack = normalize(session.read().parquet(out).select(col("id"), col("s"), col("xs"), col("m"),
                col("ls")).collect().rows());
        assertThat(DuckDbOracle.sorted(readBack)).isEqualTo(DuckDbOracle.sorted(expected));
        assertThatThrownBy(() -> session.sql("SELECT id, xs FROM n").write().csv(data.resolve("csv").toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("column 'xs'").hasMessageContaining("ARRAY<BIGINT>");
        assertThat(session.sql("SELECT count(*) FROM n").collect().rows()).containsExactly(List.of(300L));
    }

    @Test
    void resultsPrintNestedValuesAsSparkShowsThem() {
        QueryResult result = both.session().sql("SELECT s, xs, m FROM n WHERE id = 13").collect();
        assertThat(result.toCsv()).isEqualTo("s,xs,m\n\"{13, x6, {26, [1, null]}}\",[13],\"{k1 -> 13, z -> 130}\"\n");
    }

    private static void assertSame(String sluice, String duckDb) throws Exception {
        List<List<Object>> expected = normalize(both.duck().queryRaw(duckDb));
        List<List<Object>> actual = normalize(both.session().sql(sluice).collect().rows());
        assertThat(DuckDbOracle.sorted(actual)).as(sluice).isEqualTo(DuckDbOracle.sorted(expected));
    }

    private static List<List<Object>> normalize(List<List<Object>> rows) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> values = new ArrayList<>();
            for (Object v : row) {
                values.add(value(v));
            }
            out.add(values);
        }
        return out;
    }

    /** Scalars as {@link DuckDbOracle#normalize}, structs and maps as sorted maps, lists and arrays as lists. */
    private static Object value(Object v) throws Exception {
        if (v instanceof org.duckdb.DuckDBStruct struct) {
            return value(struct.getMap());
        }
        if (v instanceof Array array) {
            return value(java.util.Arrays.asList((Object[]) array.getArray()));
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.put(String.valueOf(value(e.getKey())), value(e.getValue()));
            }
            return out;
        }
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object e : list) {
                out.add(value(e));
            }
            return out;
        }
        return DuckDbOracle.normalize(v);
    }
}
