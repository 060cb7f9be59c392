package io.sluice.testfixtures;

import java.nio.file.Path;
import java.sql.SQLException;

/** Parquet files written by DuckDB for plan tests. */
public final class ParquetFixtures {
    private ParquetFixtures() {
    }

    /**
     * Writes {@code select} to {@code dir/name.parquet} in row groups of 2048 rows and returns the
     * file's location (to register as table {@code name}).
     */
    public static String write(Path dir, String name, String select) throws SQLException {
        Path file = dir.resolve(name + ".parquet");
        try (DuckDbOracle duck = new DuckDbOracle()) {
            duck.writeParquet(select, file, 2048);
        }
        return file.toString();
    }
}
