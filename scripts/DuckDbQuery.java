import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * DuckDB's side of scripts/bench-cli-start.sh: a fresh JVM opens an in-memory DuckDB over JDBC,
 * runs one query and prints its first column, one value a line, as 'sluice sql --format csv' does.
 */
public final class DuckDbQuery {
    private DuckDbQuery() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(args[0])) {
            while (rows.next()) {
                System.out.println(rows.getString(1));
            }
        }
    }
}
