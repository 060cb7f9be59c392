package io.sluice.api;

import static io.sluice.api.Functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DataFrame joins on the embedded cluster against DuckDB over the same Parquet tables: every Spark
 * join type on a condition and on using columns, columns of each side told apart by their DataFrame
 * ({@code l.col("id")} vs {@code r.col("id")}) where the names clash, and the errors of ambiguous or
 * unknown columns. Keys have NULLs and duplicates on both sides.
 */
class DataFrameJoinIT extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data,
                new DuckDbComparison.Table("l", "SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE i % 5 END AS k, "
                        + "i * 10 AS v, CASE WHEN i % 4 = 0 THEN NULL ELSE 's' || (i % 3) END AS s FROM range(0, 40) t(i)", 2),
                new DuckDbComparison.Table("r", "SELECT i AS id, CASE WHEN i % 6 = 0 THEN NULL ELSE i % 8 END AS k, "
                        + "i * 3 AS w, 's' || (i % 2) AS s FROM range(0, 30) t(i)", 2));
    }

    private static DataFrame l() {
        return both.session().table("l");
    }

    private static DataFrame r() {
        return both.session().table("r");
    }

    private static void assertSameRows(DataFrame df, String duckSql) throws Exception {
        both.assertSameRows(df, duckSql);
    }

    @ParameterizedTest
    @CsvSource({
        "inner, INNER", "cross, INNER", "left, LEFT", "leftouter, LEFT", "left_outer, LEFT", "right, RIGHT",
        "right_outer, RIGHT", "full, FULL", "outer, FULL", "fullouter, FULL", "full_outer, FULL"})
    void conditionJoinsOutputBothSides(String sparkType, String sqlType) throws Exception {
        DataFrame l = l();
        DataFrame r = r();
        DataFrame joined = l.join(r, l.col("k").equalTo(r.col("k")), sparkType);
        assertSameRows(joined.select(l.col("id").as("lid"), r.col("id").as("rid"), l.col("s"), r.col("s").as("rs"), col("v"), col("w")),
                "SELECT l.id, r.id, l.s, r.s, v, w FROM l " + sqlType + " JOIN r ON l.k = r.k");
        assertThat(joined.columns()).containsExactly("l.id", "l.k", "v", "l.s", "r.id", "r.k", "w", "r.s");
    }

    @ParameterizedTest
    @CsvSource({"left_semi, SEMI", "semi, SEMI", "leftsemi, SEMI", "left_anti, ANTI", "anti, ANTI", "leftanti, ANTI"})
    void semiAndAntiJoinsOutputTheLeftColumns(String sparkType, String sqlType) throws Exception {
        DataFrame l = l();
        DataFrame r = r();
        DataFrame joined = l.join(r, l.col("k").equalTo(r.col("k")).and(r.col("w").gt(l.col("id"))), sparkType);
        assertThat(joined.columns()).containsExactly("id", "k", "v", "s");
        assertSameRows(joined, "SELECT * FROM l " + sqlType + " JOIN r ON l.k = r.k AND r.w > l.id");
    }

    @Test
    void nonEquiConditionsAndCrossJoins() throws Exception {
        DataFrame l = l();
        DataFrame r = r();
        assertSameRows(l.join(r, l.col("k").equalTo(r.col("k")).and(col("v").gt(col("w"))), "left")
                .select(l.col("id"), col("w")), "SELECT l.id, w FROM l LEFT JOIN r ON l.k = r.k AND v > w");
        assertSameRows(l.join(r, col("v").lt(col("w")), "full").select(l.col("id"), r.col("id").as("rid")),
                "SELECT l.id, r.id FROM l FULL JOIN r ON v < w");
        assertThat(l.crossJoin(r).count()).isEqualTo(40 * 30);
        assertSameRows(l.crossJoin(r).filter(l.col("id").equalTo(r.col("k"))).select(l.col("id"), col("w")),
                "SELECT l.id, w FROM l, r WHERE l.id = r.k");
    }

    @ParameterizedTest
    @CsvSource({"inner, INNER", "left, LEFT", "right, RIGHT", "full, FULL"})
    void usingColumnsAreOutputOnce(String sparkType, String sqlType) throws Exception {
        DataFrame joined = l().join(r(), List.of("k"), sparkType);
        assertThat(joined.columns()).containsExactly("k", "l.id", "v", "l.s", "r.id", "w", "r.s");
        String key = sqlType.equals("FULL") ? "coalesce(l.k, r.k)" : sqlType.equals("RIGHT") ? "r.k" : "l.k";
        assertSameRows(joined, "SELECT " + key + ", l.id, v, l.s, r.id, w, r.s FROM l " + sqlType + " JOIN r ON l.k = r.k");
        assertSameRows(l().join(r(), List.of("k", "s"), sparkType).select(col("k"), col("s"), col("l.id"), col("w")),
                "SELECT " + key + ", " + key.replace("k", "s") + ", l.id, w FROM l " + sqlType
                        + " JOIN r ON l.k = r.k AND l.s = r.s");
    }

    @Test
    void usingColumnsWithSemiJoinAndAliasedSelfJoin() throws Exception {
        assertSameRows(l().join(r(), "k", "left_anti"), "SELECT k, id, v, s FROM l ANTI JOIN r ON l.k = r.k");
        DataFrame a = l().alias("a");
        DataFrame b = l().alias("b");
        DataFrame self = a.join(b, col("a.k").equalTo(col("b.id")));
        assertSameRows(self.select(col("a.id"), col("b.v")), "SELECT a.id, b.v FROM l a JOIN l b ON a.k = b.id");
        assertSameRows(self.select(a.col("id"), b.col("v")), "SELECT a.id, b.v FROM l a JOIN l b ON a.k = b.id");
    }

    @Test
    void joinedColumnsResolveThroughLaterSteps() throws Exception {
        DataFrame l = l();
        DataFrame r = r();
        DataFrame joined = l.join(r, l.col("k").equalTo(r.col("k"))).filter(r.col("s").equalTo("s1"))
                .withColumnRenamed("w", "w2").orderBy(l.col("id").asc_nulls_first());
        assertSameRows(joined.select(l.col("id"), r.col("id").as("rid"), col("w2")),
                "SELECT l.id, r.id, w FROM l JOIN r ON l.k = r.k WHERE r.s = 's1'");
        assertSameRows(joined.drop(r.col("id")).select(col("id"), col("w2")),
                "SELECT l.id, w FROM l JOIN r ON l.k = r.k WHERE r.s = 's1'");
    }

    @Test
    void ambiguousAndForeignColumnsAreErrorsNamingThem() throws Exception {
        DataFrame l = l();
        DataFrame r = r();
        DataFrame joined = l.join(r, l.col("k").equalTo(r.col("k")));
        assertThatThrownBy(() -> joined.select(col("id"))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("'id' is ambiguous").hasMessageContaining("l.id").hasMessageContaining("r.id");
        assertThatThrownBy(() -> l.select(r.col("w"))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("cannot resolve column 'w'");
        assertThatThrownBy(() -> l.join(l, l.col("k").equalTo(l.col("id")))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("alias");
        assertThatThrownBy(() -> l.join(r, List.of("nope"), "inner")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("using column 'nope' is not a column of the left side");
        assertThatThrownBy(() -> l.join(r, col("v").gt(col("w")), "sideways")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("unsupported join type 'sideways'");
        assertSameRows(l.join(r, "k").select(col("k")), "SELECT k FROM l JOIN r USING (k)");
    }
}
