package io.sluice.testfixtures;

import io.sluice.datasource.FileFormats;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/** Parquet files written by DuckDB for plan tests. */
public final class ParquetFixtures {
    private ParquetFixtures() {
    }

    /** Writes {@code select} to {@code dir/name.parquet} in row groups of 2048 rows and registers it as table {@code name}. */
    public static TableSource table(Path dir, String name, String select) throws Exception {
        Path file = dir.resolve(name + ".parquet");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            s.execute("COPY (" + select + ") TO '" + file + "' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)");
        }
        return FileFormats.register(name, FileFormat.PARQUET, file.toString());
    }
}
