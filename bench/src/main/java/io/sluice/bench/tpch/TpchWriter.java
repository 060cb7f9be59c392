package io.sluice.bench.tpch;

import io.sluice.tpch.TpchData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;

/**
 * The engine that writes the benchmark's Parquet files ({@code sluice tpch --writer}). Sluice's
 * generator always writes the data first; DuckDB and Spark then write the same rows again with their
 * own Parquet writers (row groups, encodings, file counts), cached beside it
 * ({@link TpchData#rewrittenBy}), since users' files come from many writers and speed on our own files
 * alone says little.
 */
enum TpchWriter {
    /** Sluice's generator: several files a table, its own row groups and encodings. */
    SLUICE,
    /** DuckDB's {@code COPY … (FORMAT parquet)}: one file a table, 122,880-row groups. */
    DUCKDB,
    /** Apache Spark 4.2 {@code local[2]} ({@code bench/spark-peer}): a file per read split. */
    SPARK;

    static TpchWriter parse(String name) {
        for (TpchWriter writer : values()) {
            if (writer.name().equalsIgnoreCase(name)) {
                return writer;
            }
        }
        throw new IllegalArgumentException("--writer takes sluice, duckdb or spark, not '" + name + "'");
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The data as this writer writes it, rewriting {@code generated} (Sluice's files) when no copy is cached. */
    TpchData prepare(TpchData generated, int duckdbThreads) {
        return switch (this) {
            case SLUICE -> generated;
            case DUCKDB -> generated.rewrittenBy(label(), (source, target) -> writeWithDuckDb(source, target, duckdbThreads));
            case SPARK -> {
                SparkPeer spark = SparkPeer.locate(SparkPeer.repositoryRoot());
                long limitSeconds = 1800 + (long) Math.ceil(generated.scaleFactor() * 900);
                yield generated.rewrittenBy(label(), (source, target) -> spark.rewrite(source, target, limitSeconds));
            }
        };
    }

    private static void writeWithDuckDb(TpchData source, Path target, int threads) throws IOException {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            s.execute("SET threads = " + threads);
            for (Map.Entry<String, Path> table : source.tables().entrySet()) {
                Path directory = Files.createDirectories(target.resolve(table.getKey()));
                s.execute("COPY (SELECT * FROM read_parquet('" + table.getValue().toAbsolutePath() + "/*.parquet')) TO '"
                        + directory.resolve("part-00.parquet").toAbsolutePath() + "' (FORMAT parquet)");
                System.out.println("duckdb wrote " + table.getKey());
            }
        } catch (SQLException e) {
            throw new IOException("DuckDB could not write the TPC-H tables under " + target + ": " + e.getMessage(), e);
        }
    }
}
