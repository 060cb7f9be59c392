package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * An embedded cluster (two workers, three shuffle partitions) and DuckDB over the same Parquet
 * tables, each table written by DuckDB from a query; queries run on both and must agree.
 */
final class DuckDbComparison implements AutoCloseable {
    /** A table: its name, the DuckDB query that makes its rows, and how many files to spread them over. */
    /** A table of {@code files} Parquet files; rows per row group as DuckDB writes them unless {@code rowGroupRows > 0}. */
    record Table(String name, String query, int files, int rowGroupRows) {
        Table(String name, String query, int files) {
            this(name, query, files, 0);
        }
    }

    private final Session session;
    private final DuckDbOracle duck;

    private DuckDbComparison(Session session, DuckDbOracle duck) {
        this.session = session;
        this.duck = duck;
    }

    /** Writes each table under {@code data} (a table of several files splits its rows by row number). */
    static DuckDbComparison start(Path data, Table... tables) throws Exception {
        DuckDbOracle duck = new DuckDbOracle();
        try {
            StringBuilder ddl = new StringBuilder();
            for (Table t : tables) {
                Path dir = Files.createDirectories(data.resolve(t.name()));
                for (int part = 0; part < t.files(); part++) {
                    Path file = dir.resolve("part" + part + ".parquet");
                    duck.execute("COPY (SELECT * EXCLUDE (row_number) FROM (SELECT *, row_number() OVER () AS row_number "
                            + "FROM (" + t.query() + ")) WHERE row_number % " + t.files() + " = " + part + ") TO '" + file
                            + "' (FORMAT PARQUET" + (t.rowGroupRows() > 0 ? ", ROW_GROUP_SIZE " + t.rowGroupRows() : "") + ")");
                }
                duck.execute("CREATE VIEW " + t.name() + " AS SELECT * FROM read_parquet('" + dir + "/*.parquet')");
                ddl.append("CREATE EXTERNAL TABLE ").append(t.name()).append(" STORED AS PARQUET LOCATION '")
                        .append(dir).append("';");
            }
            Session session = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2).withShufflePartitions(3)));
            session.sql(ddl.toString());
            return new DuckDbComparison(session, duck);
        } catch (Exception | Error e) {
            duck.close();
            throw e;
        }
    }

    Session session() {
        return session;
    }

    DuckDbOracle duck() {
        return duck;
    }

    /** The query gives the same rows on the cluster as on DuckDB, in any order. */
    void assertSameRows(String sql) throws Exception {
        List<List<Object>> expected = duck.query(sql);
        List<List<Object>> actual = DuckDbOracle.normalize(session.sql(sql).collect());
        assertThat(DuckDbOracle.sorted(actual)).as(sql).isEqualTo(DuckDbOracle.sorted(expected));
    }

    /** The DataFrame gives the same rows as DuckDB's {@code duckSql}, in any order. */
    void assertSameRows(DataFrame df, String duckSql) throws Exception {
        List<List<Object>> expected = duck.query(duckSql);
        List<List<Object>> actual = DuckDbOracle.normalize(df.collect());
        assertThat(DuckDbOracle.sorted(actual)).as(duckSql).isEqualTo(DuckDbOracle.sorted(expected));
    }

    @Override
    public void close() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }
}
