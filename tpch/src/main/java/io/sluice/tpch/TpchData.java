package io.sluice.tpch;

import static java.util.Objects.requireNonNull;

import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * TPC-H tables as Parquet files, generated once with the {@code io.trino.tpch} generator (dbgen's
 * data) and cached: {@code <root>/sf<scale>/<table>/part-<i>.parquet}, with a {@code _SUCCESS}
 * marker written last, so an interrupted generation is redone rather than half used.
 *
 * <p>Column types follow the specification: keys BIGINT, other integers INTEGER, money DECIMAL(15,2),
 * dates DATE, text VARCHAR. Large tables are split into several files so that a scan has several
 * partitions to spread over workers.
 */
public final class TpchData {
    /** Rows per generated file, roughly; the generator splits a table into parts of equal size. */
    private static final long ROWS_PER_FILE = 2_000_000;
    private static final String MARKER = "_SUCCESS";

    private final Path directory;
    private final double scaleFactor;

    private TpchData(Path directory, double scaleFactor) {
        this.directory = directory;
        this.scaleFactor = scaleFactor;
    }

    /**
     * The data at {@code scaleFactor} under {@code root}, generating it first if no complete copy is
     * there. Generation runs one file per thread on all processors.
     */
    public static TpchData generate(Path root, double scaleFactor) {
        requireNonNull(root, "root is null");
        if (!(scaleFactor > 0) || scaleFactor > 1000) {
            throw new IllegalArgumentException("scale factor must be in (0, 1000], not " + scaleFactor);
        }
        Path directory = root.resolve("sf" + BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString());
        TpchData data = new TpchData(directory, scaleFactor);
        if (!Files.exists(directory.resolve(MARKER))) {
            data.writeAll();
        }
        return data;
    }

    /**
     * The same tables rewritten by another Parquet writer ({@code writer}, e.g. DuckDB or Spark), cached
     * beside this copy as {@code sf<scale>-<name>} with its own {@code _SUCCESS} marker: {@code writer}
     * gets this data and an empty directory to fill with one sub-directory per table, and runs only when
     * no complete rewrite is there. Users' files come from many writers; this is how the benchmark
     * measures on files Sluice did not write.
     */
    public TpchData rewrittenBy(String name, Writer writer) {
        requireNonNull(writer, "writer is null");
        if (!name.matches("[a-z0-9]+")) {
            throw new IllegalArgumentException("a writer's name is lowercase letters and digits, not '" + name + "'");
        }
        TpchData rewritten = new TpchData(directory.resolveSibling(directory.getFileName() + "-" + name), scaleFactor);
        if (Files.exists(rewritten.directory.resolve(MARKER))) {
            return rewritten;
        }
        try {
            if (Files.exists(rewritten.directory)) {
                deleteRecursively(rewritten.directory);
            }
            Files.createDirectories(rewritten.directory);
            writer.write(this, rewritten.directory);
            for (String table : tables().keySet()) {
                if (!Files.isDirectory(rewritten.directory.resolve(table))) {
                    throw new IllegalStateException("the " + name + " writer wrote no directory for table " + table
                            + " under " + rewritten.directory);
                }
            }
            Files.writeString(rewritten.directory.resolve(MARKER), "scale factor " + scaleFactor + ", written by " + name + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write TPC-H data under " + rewritten.directory, e);
        }
        return rewritten;
    }

    /** Writes the tables of a {@link TpchData} again, with another engine, into a directory. */
    @FunctionalInterface
    public interface Writer {
        void write(TpchData source, Path target) throws IOException;
    }

    /** The directory holding one sub-directory per table. */
    public Path directory() {
        return directory;
    }

    public double scaleFactor() {
        return scaleFactor;
    }

    /** Table name to its directory of Parquet files, in the order of the specification. */
    public Map<String, Path> tables() {
        Map<String, Path> tables = new LinkedHashMap<>();
        for (TpchTable<?> table : TpchTable.getTables()) {
            tables.put(table.getTableName(), directory.resolve(table.getTableName()));
        }
        return tables;
    }

    private void writeAll() {
        try {
            if (Files.exists(directory)) {
                deleteRecursively(directory);
            }
            Files.createDirectories(directory);
            int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
            ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
                Thread thread = new Thread(runnable, "tpch-generator");
                thread.setDaemon(true);
                return thread;
            });
            try {
                List<Future<?>> files = new ArrayList<>();
                for (TpchTable<?> table : TpchTable.getTables()) {
                    Path tableDirectory = Files.createDirectories(directory.resolve(table.getTableName()));
                    int parts = parts(table);
                    for (int part = 1; part <= parts; part++) {
                        int thisPart = part;
                        files.add(pool.submit(() -> {
                            writePart(table, tableDirectory, thisPart, parts);
                            return null;
                        }));
                    }
                }
                for (Future<?> file : files) {
                    file.get();
                }
            } finally {
                pool.shutdownNow();
            }
            Files.writeString(directory.resolve(MARKER), "scale factor " + scaleFactor + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write TPC-H data under " + directory, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot generate TPC-H data under " + directory + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while generating TPC-H data", e);
        }
    }

    private int parts(TpchTable<?> table) {
        long rows = switch (table.getTableName()) {
            case "lineitem" -> 6_000_000L;
            case "orders" -> 1_500_000L;
            case "partsupp" -> 800_000L;
            case "part" -> 200_000L;
            case "customer" -> 150_000L;
            case "supplier" -> 10_000L;
            default -> 0L; // nation and region have fixed sizes
        };
        return (int) Math.max(1, Math.min(64, Math.ceil(rows * scaleFactor / ROWS_PER_FILE)));
    }

    private <E extends io.trino.tpch.TpchEntity> void writePart(TpchTable<E> table, Path tableDirectory, int part, int parts)
            throws IOException {
        Path target = tableDirectory.resolve(String.format("part-%02d.parquet", part));
        Path temporary = tableDirectory.resolve(".part-" + part + ".tmp");
        Files.deleteIfExists(temporary);
        try (TpchParquetWriter<E> writer = new TpchParquetWriter<>(table, temporary)) {
            for (E row : table.createGenerator(scaleFactor, part, parts)) {
                writer.write(row);
            }
        }
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (var paths = Files.walk(path)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
