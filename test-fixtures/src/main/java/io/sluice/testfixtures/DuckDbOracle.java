package io.sluice.testfixtures;

import io.sluice.kernels.QueryResult;
import io.sluice.tpch.Answers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB in this JVM as the reference engine: runs the same SQL on the same files and normalizes
 * values of both sides for comparison (integers as longs, decimals without trailing zeros, doubles
 * rounded to 9 significant digits, dates as ISO text, NULL as null). Also the writer of the files
 * tests read: whatever DuckDB writes is what another engine would.
 */
public final class DuckDbOracle implements AutoCloseable {
    private final Connection connection;

    public DuckDbOracle() throws SQLException {
        connection = DriverManager.getConnection("jdbc:duckdb:");
    }

    /** Runs a statement that returns nothing (a new Statement each time: DuckDB closes one after a failure). */
    public void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    /** Writes the rows of {@code select} to the Parquet file {@code file}, in row groups of {@code rowGroupRows} rows. */
    public void writeParquet(String select, Path file, int rowGroupRows) throws SQLException {
        execute("COPY (" + select + ") TO '" + file + "' (FORMAT PARQUET, ROW_GROUP_SIZE " + rowGroupRows + ")");
    }

    public List<List<Object>> query(String sql) throws SQLException {
        return Answers.normalize(queryRaw(sql));
    }

    /** The rows as DuckDB's JDBC driver returns them, not normalized (for comparisons with a tolerance or typed values). */
    public List<List<Object>> queryRaw(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    /** The JDBC connection, for code that takes one (the TPC-H benchmark's DuckDB setup). */
    public Connection connection() {
        return connection;
    }

    /** The rows of a result (a {@code DataFrame}'s {@code collect()} included), normalized. */
    public static List<List<Object>> normalize(QueryResult result) {
        return Answers.normalize(result.rows());
    }

    public static Object normalize(Object v) {
        return Answers.normalize(v);
    }

    /** Rows in a canonical order, for queries whose order is not fully specified. */
    public static List<List<Object>> sorted(List<List<Object>> rows) {
        return Answers.sorted(rows);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
