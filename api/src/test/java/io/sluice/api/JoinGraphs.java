package io.sluice.api;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Generated multi-join queries: seeded random connected join graphs of 3 to 8 small Parquet tables
 * t0..t7, as comma joins in a random FROM order with their equalities and filters in WHERE in a
 * random order. The tables are written by DuckDB and registered with both engines.
 */
final class JoinGraphs {
    private static final int TABLES = 8;
    private static final int GRAPHS = 12;
    private static final long SEED = 14;

    private JoinGraphs() {
    }

    static void createTables(Path data, DuckDbOracle duck, Session session) throws Exception {
        StringBuilder ddl = new StringBuilder();
        for (int t = 0; t < TABLES; t++) {
            int rows = 60 + 47 * t;
            Path file = data.resolve("t" + t + ".parquet");
            // id: unique; fk: a key into any table's id range (NULL now and then); g: a small domain; v: a value.
            duck.execute("COPY (SELECT i AS id, CASE WHEN i % 13 = " + t + " THEN NULL ELSE (i * " + (7 + 2 * t)
                    + ") % 60 END AS fk, i % " + (3 + t) + " AS g, (i * 31 + " + t + ") % 101 AS v FROM range(" + rows
                    + ") r(i)) TO '" + file + "' (FORMAT PARQUET)");
            duck.execute("CREATE VIEW t" + t + " AS SELECT * FROM read_parquet('" + file + "')");
            ddl.append("CREATE EXTERNAL TABLE t").append(t).append(" STORED AS PARQUET LOCATION '").append(file)
                    .append("';");
        }
        session.sql(ddl.toString());
    }

    /** One query per graph, generated from one seed so that a failure names a reproducible query. */
    static Stream<String> queries() {
        Random random = new Random(SEED);
        List<String> out = new ArrayList<>();
        for (int q = 0; q < GRAPHS; q++) {
            int n = 3 + q % 6;
            List<Integer> tables = new ArrayList<>(IntStream.range(0, TABLES).boxed().toList());
            Collections.shuffle(tables, random);
            tables = tables.subList(0, n);
            List<String> predicates = new ArrayList<>();
            for (int i = 1; i < n; i++) {
                // A spanning tree: each table joins one earlier table, by a foreign key or a small domain.
                String a = "t" + tables.get(i);
                String b = "t" + tables.get(random.nextInt(i));
                predicates.add(switch (random.nextInt(4)) {
                    case 0 -> b + ".fk = " + a + ".id";
                    case 1, 2 -> a + ".fk = " + b + ".id";
                    default -> a + ".g = " + b + ".g AND " + a + ".id = " + b + ".fk";
                });
            }
            if (n > 3 && random.nextBoolean()) {
                // An extra edge closes a cycle.
                predicates.add("t" + tables.get(0) + ".g = t" + tables.get(n - 1) + ".g");
            }
            for (int t : tables) {
                switch (random.nextInt(6)) {
                    case 0 -> predicates.add("t" + t + ".v < " + (50 + random.nextInt(50)));
                    case 1 -> predicates.add("t" + t + ".g IN (0, 1, 2)");
                    case 2 -> predicates.add("(t" + t + ".v > 50 OR t" + t + ".fk IS NULL)");
                    default -> { }
                }
            }
            Collections.shuffle(predicates, random);
            List<String> from = new ArrayList<>();
            List<String> select = new ArrayList<>(List.of("count(*) AS c"));
            for (int t : tables) {
                from.add("t" + t);
                select.add("sum(t" + t + ".v) AS s" + t);
            }
            Collections.shuffle(from, random);
            out.add("SELECT " + String.join(", ", select) + " FROM " + String.join(", ", from) + " WHERE "
                    + String.join(" AND ", predicates));
        }
        return out.stream();
    }

}
