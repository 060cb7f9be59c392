package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code x [NOT] IN (list)} as one expression gives DuckDB's answers over integer, bigint, decimal,
 * date and string columns with NULLs, with NULLs in the list (no match is then NULL, so NOT IN keeps
 * no row), inside OR, AND and CASE, over computed values and with items that are not constants; and
 * a scan still skips the files whose min/max range holds none of the items.
 */
class InListTest extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("t", "SELECT CAST(i AS INTEGER) AS i, "
                + "CASE WHEN i % 11 = 0 THEN NULL ELSE i % 50 END AS l, "
                + "CAST((i % 40) / 4.0 AS DECIMAL(12, 2)) AS d, "
                + "CASE WHEN i % 17 = 0 THEN NULL ELSE DATE '1995-01-01' + CAST(i % 30 AS INTEGER) END AS dt, "
                + "CASE WHEN i % 13 = 0 THEN NULL ELSE 'v' || (i % 20) END AS s "
                + "FROM range(0, 20000) r(i)", 2, 3000));
        // four files, each holding one range of k, so that min/max statistics tell them apart
        Path ranged = Files.createDirectories(data.resolve("ranged"));
        for (int part = 0; part < 4; part++) {
            both.duck().execute("COPY (SELECT CAST(i AS BIGINT) AS k, 'n' || i AS name FROM range(" + part * 1000 + ", "
                    + (part + 1) * 1000 + ") r(i)) TO '" + ranged.resolve("part" + part + ".parquet") + "' (FORMAT PARQUET)");
        }
        both.duck().execute("CREATE VIEW ranged AS SELECT * FROM read_parquet('" + ranged + "/*.parquet')");
        both.session().sql("CREATE EXTERNAL TABLE ranged STORED AS PARQUET LOCATION '" + ranged + "'");
    }

    @Test
    void numbersAndDatesWithNullsInTheColumn() throws Exception {
        both.assertSameRows("SELECT i, l FROM t WHERE l IN (1, 7, 49, 1000)");
        both.assertSameRows("SELECT i, l FROM t WHERE l NOT IN (1, 2, 3)");
        both.assertSameRows("SELECT i FROM t WHERE i IN (5, 10, 15, 99999, -3)");
        both.assertSameRows("SELECT i FROM t WHERE i NOT IN (5, 10, 15) AND i < 40");
        both.assertSameRows("SELECT i, d FROM t WHERE d IN (1.25, 2.5, 3, 9.999)");
        both.assertSameRows("SELECT i, l FROM t WHERE l IN (1.5, 2)");
        both.assertSameRows("SELECT i, dt FROM t WHERE dt IN (DATE '1995-01-03', DATE '1995-01-20')");
        both.assertSameRows("SELECT i, dt FROM t WHERE dt NOT IN ('1995-01-05', '1995-01-07')");
        // far apart: the set is a hash table, not a bitmap
        both.assertSameRows("SELECT i, l FROM t WHERE l IN (1, 3, 100000, 5000000, -7)");
        both.assertSameRows("SELECT i FROM t WHERE i IN (1, 19999, 1000000, -1000000, 9223372036854775807)");
    }

    @Test
    void strings() throws Exception {
        both.assertSameRows("SELECT i, s FROM t WHERE s IN ('v1', 'v13', 'zzz')");
        both.assertSameRows("SELECT i, s FROM t WHERE s NOT IN ('v1', 'v2')");
        both.assertSameRows("SELECT i, s FROM t WHERE substring(s, 1, 2) IN ('v1', 'v2')");
        both.assertSameRows("SELECT i, s FROM t WHERE upper(s) NOT IN ('V1', 'V2', 'V3')");
    }

    @Test
    void aNullInTheListMakesEveryMissNull() throws Exception {
        both.assertSameRows("SELECT i FROM t WHERE l IN (1, NULL)");
        both.assertSameRows("SELECT i FROM t WHERE l NOT IN (1, NULL)");
        both.assertSameRows("SELECT i FROM t WHERE s NOT IN ('v1', NULL)");
        both.assertSameRows("SELECT i, l IN (1, 2, NULL) AS a, l NOT IN (3, NULL) AS b, l IN (4, 5) AS c, "
                + "l NOT IN (4, 5) AS e, s IN ('v1', NULL) AS f, s NOT IN ('v2', 'v3') AS g, dt IN ('1995-01-02', NULL) AS h "
                + "FROM t WHERE i < 200");
        both.assertSameRows("SELECT i, NOT (l IN (1, 2)) AS n, NOT (l NOT IN (1, NULL)) AS m FROM t WHERE i < 100");
    }

    @Test
    void insideOrAndAndCase() throws Exception {
        both.assertSameRows("SELECT i FROM t WHERE (l IN (1, 2) OR s IN ('v5', 'v6')) AND i NOT IN (1, 2, 3)");
        both.assertSameRows("SELECT i FROM t WHERE l IN (1, 2) AND s IN ('v1', 'v2', 'v3') OR d IN (0.25, 0.5)");
        both.assertSameRows("SELECT i, CASE WHEN l IN (1, 2) THEN 'a' WHEN s NOT IN ('v3') THEN 'b' ELSE 'c' END AS k "
                + "FROM t WHERE i < 500");
        both.assertSameRows("SELECT s, count(*) AS n, sum(CASE WHEN l IN (3, 4, 5) THEN 1 ELSE 0 END) AS hits FROM t "
                + "GROUP BY s");
    }

    @Test
    void itemsThatAreNotConstants() throws Exception {
        both.assertSameRows("SELECT i FROM t WHERE l IN (i % 7, 3, i - 1)");
        both.assertSameRows("SELECT i FROM t WHERE i + 1 NOT IN (l, 2) AND i < 100");
        both.assertSameRows("SELECT i FROM t WHERE CAST(l AS DOUBLE) IN (1.0, 2.5, 3.0)");
    }

    @Test
    void aScanSkipsTheFilesWhoseRangeHoldsNoItem() throws Exception {
        String one = "SELECT k, name FROM ranged WHERE k IN (1500, 1600, 1999)";
        assertThat(explain(one)).contains("files=1/4").contains("(k IN (1500, 1600, 1999))");
        both.assertSameRows(one);
        String two = "SELECT count(*) AS n FROM ranged WHERE k IN (10, 3500)";
        assertThat(explain(two)).contains("files=2/4");
        both.assertSameRows(two);
        String none = "SELECT count(*) AS n FROM ranged WHERE k IN (-1, 4000, NULL)";
        assertThat(explain(none)).contains("files=0/4");
        both.assertSameRows(none);
        String negated = "SELECT count(*) AS n FROM ranged WHERE k NOT IN (1500, 1600)";
        assertThat(explain(negated)).contains("files=4/4");
        both.assertSameRows(negated);
    }

    private static String explain(String sql) throws Exception {
        return both.session().sql("EXPLAIN " + sql).collect().rows().stream().map(r -> (String) r.get(0))
                .collect(Collectors.joining("\n"));
    }
}
