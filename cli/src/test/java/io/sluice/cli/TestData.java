package io.sluice.cli;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The files the process tests query, written by DuckDB: a CSV directory of two files and a Parquet
 * file of several row groups, with NULLs, strings needing CSV quotes, ints, doubles, a
 * DECIMAL(12,2) and a date. DuckDB gets views of the same names so one query text runs on both.
 */
final class TestData {
    private static final String ROWS = "SELECT i AS id, "
            + "CASE WHEN i % 7 = 0 THEN NULL WHEN i % 13 = 5 THEN 'five, \"quoted\"' ELSE 'k' || (i % 13) END AS k, "
            + "CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 37) % 1000 END AS v, "
            + "CAST((i % 97) * 1.25 AS DOUBLE) AS x, "
            + "CASE WHEN i % 17 = 0 THEN NULL ELSE CAST((i % 500) / 4.0 AS DECIMAL(12,2)) END AS d, "
            + "DATE '2024-01-01' + CAST(i % 365 AS INTEGER) AS dt "
            + "FROM range(FROM_ROW, TO_ROW) r(i)";

    private TestData() {
    }

    static void write(DuckDbOracle duck, Path dir) throws Exception {
        Files.createDirectories(dir.resolve("csv"));
        for (int f = 0; f < 2; f++) {
            duck.execute("COPY (" + rows(f * 3000, (f + 1) * 3000) + ") TO '" + dir.resolve("csv/part-" + f + ".csv")
                    + "' (FORMAT CSV, HEADER)");
        }
        duck.execute("COPY (" + rows(0, 6000) + ") TO '" + dir.resolve("t.parquet") + "' (FORMAT PARQUET, ROW_GROUP_SIZE 1024)");
        duck.execute("CREATE VIEW csv_t AS SELECT * FROM read_csv_auto('" + dir.resolve("csv") + "/*.csv')");
        duck.execute("CREATE VIEW pq_t AS SELECT * FROM read_parquet('" + dir.resolve("t.parquet") + "')");
    }

    /** The statements that register the same files in Sluice, each ending with ';' and a line break. */
    static String createTables(Path dir) {
        return "CREATE EXTERNAL TABLE csv_t STORED AS CSV LOCATION '" + dir.resolve("csv") + "';\n"
                + "CREATE EXTERNAL TABLE pq_t STORED AS PARQUET LOCATION '" + dir.resolve("t.parquet") + "';\n";
    }

    private static String rows(int from, int to) {
        return ROWS.replace("FROM_ROW", String.valueOf(from)).replace("TO_ROW", String.valueOf(to));
    }
}
