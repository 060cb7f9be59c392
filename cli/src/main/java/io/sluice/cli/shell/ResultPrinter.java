package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.datasource.sink.PartitionFileWriter;
import io.sluice.datasource.sink.ResultFiles;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import io.sluice.kernels.QueryResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Prints each statement's result in one {@link OutputFormat}: a query's rows on {@code out} (or
 * into the output file), a status-only statement's message on {@code err} in the table format and
 * nowhere in the others, so that csv, tsv and json output holds nothing but rows.
 */
public final class ResultPrinter {
    private final OutputFormat format;
    private final String outputFile;
    private final PrintWriter out;
    private final PrintWriter err;

    /** {@code outputFile}: where {@link OutputFormat#toFile() file formats} write; null for the others. */
    public ResultPrinter(OutputFormat format, String outputFile, PrintWriter out, PrintWriter err) {
        this.format = requireNonNull(format, "format is null");
        if (format.toFile() != (outputFile != null)) {
            throw new IllegalArgumentException("an output file goes with the arrow and parquet formats only");
        }
        this.outputFile = outputFile;
        this.out = requireNonNull(out, "out is null");
        this.err = requireNonNull(err, "err is null");
    }

    /** Prints a result (an Arrow IPC stream); {@code elapsed}, when given, follows the row count or status. */
    void print(StatementKind kind, byte[] ipc, Duration elapsed) {
        if (kind != StatementKind.QUERY) {
            if (format == OutputFormat.TABLE) {
                err.println(status(QueryResult.fromIpc(ipc)) + seconds(elapsed));
                err.flush();
            }
            return;
        }
        switch (format) {
            case TABLE -> out.print(QueryResult.fromIpc(ipc).toTable(seconds(elapsed)));
            case CSV -> out.print(QueryResult.fromIpc(ipc).toCsv());
            case TSV -> out.print(QueryResult.fromIpc(ipc).toDelimited('\t'));
            case JSON -> out.print(jsonLines(ipc));
            case ARROW, PARQUET -> {
                long rows = writeFile(ipc);
                err.println("wrote " + rows + (rows == 1 ? " row" : " rows") + " to " + outputFile + seconds(elapsed));
                err.flush();
            }
        }
        out.flush();
    }

    /** The engine's one-line status ("created table t"), or OK when it sent none. */
    private static String status(QueryResult result) {
        if (result.schema().size() == 1 && result.rows().size() == 1 && result.rows().get(0).get(0) instanceof String s) {
            return s;
        }
        return "OK";
    }

    private static String seconds(Duration elapsed) {
        return elapsed == null ? "" : String.format(Locale.ROOT, " (%.2f s)", elapsed.toNanos() / 1e9);
    }

    private static String jsonLines(byte[] ipc) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator()) {
            Schema schema = ArrowIpc.schema(ipc, allocator);
            writeAll(ipc, allocator, ResultFiles.jsonLines(schema, bytes));
        } catch (IOException e) {
            throw new SluiceException("cannot print the result as JSON: " + e.getMessage());
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private long writeFile(byte[] ipc) {
        try (BufferAllocator allocator = new RootAllocator()) {
            Schema schema = ArrowIpc.schema(ipc, allocator);
            PartitionFileWriter writer = format == OutputFormat.PARQUET
                    ? ResultFiles.parquet(schema, outputFile)
                    : ResultFiles.arrow(schema, outputFile, allocator);
            return writeAll(ipc, allocator, writer);
        } catch (IOException e) {
            throw new SluiceException("cannot write " + outputFile + ": " + e.getMessage());
        }
    }

    /** Writes every batch of the stream and closes the writer; the rows written. */
    private static long writeAll(byte[] ipc, BufferAllocator allocator, PartitionFileWriter writer) throws IOException {
        List<Batch> batches = ArrowIpc.decode(ipc, allocator);
        long rows = 0;
        try (writer) {
            for (Batch batch : batches) {
                writer.write(batch);
                rows += batch.rowCount();
            }
        } finally {
            batches.forEach(Batch::close);
        }
        return rows;
    }
}
