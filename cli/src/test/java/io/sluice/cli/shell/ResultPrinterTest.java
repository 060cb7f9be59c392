package io.sluice.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.testfixtures.DuckDbOracle;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each output format of a result with a NULL, a delimiter and a quote in it; status-only results. */
class ResultPrinterTest {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64), new Field("s", DataType.UTF8),
            new Field("x", DataType.FLOAT64));

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static byte[] rows() {
        try (BufferAllocator allocator = new RootAllocator();
                Batch batch = Batch.of(SCHEMA, new Col[] {
                    Col.ofLongs(DataType.INT64, new long[] {1, 2}, null),
                    Col.ofStrings(new String[] {"a,b\t\"c\"", null}, new boolean[] {false, true}),
                    Col.ofDoubles(new double[] {0.5, -2}, null)}, 2, allocator)) {
            return ArrowIpc.encode(SCHEMA, List.of(batch), allocator);
        }
    }

    private static byte[] status(String message) {
        Schema schema = Schema.of(new Field("status", DataType.UTF8));
        try (BufferAllocator allocator = new RootAllocator();
                Batch batch = Batch.of(schema, new Col[] {Col.ofStrings(new String[] {message}, null)}, 1, allocator)) {
            return ArrowIpc.encode(schema, List.of(batch), allocator);
        }
    }

    private ResultPrinter printer(OutputFormat format, String file) {
        return new ResultPrinter(format, file, new PrintWriter(out), new PrintWriter(err));
    }

    @Test
    void table() {
        ResultPrinter printer = printer(OutputFormat.TABLE, null);
        printer.print(StatementKind.COMMAND, status("created view v"), null);
        printer.print(StatementKind.QUERY, rows(), Duration.ofMillis(1234));
        assertThat(out.toString()).isEqualTo("""
                +---+---------+------+
                | k | s       | x    |
                +---+---------+------+
                | 1 | a,b\t"c" | 0.5  |
                | 2 | NULL    | -2.0 |
                +---+---------+------+
                2 rows (1.23 s)
                """);
        assertThat(err.toString()).isEqualTo("created view v\n");
    }

    @Test
    void csvTsvAndJsonPrintRowsOnly() {
        for (OutputFormat format : List.of(OutputFormat.CSV, OutputFormat.TSV, OutputFormat.JSON)) {
            ResultPrinter printer = printer(format, null);
            printer.print(StatementKind.SETTING, status("sluice.x = 1"), null);
            printer.print(StatementKind.QUERY, rows(), null);
        }
        assertThat(out.toString()).isEqualTo("k,s,x\n"
                + "1,\"a,b\t\"\"c\"\"\",0.5\n"
                + "2,,-2.0\n"
                + "k\ts\tx\n"
                + "1\t\"a,b\t\"\"c\"\"\"\t0.5\n"
                + "2\t\t-2.0\n"
                + "{\"k\":1,\"s\":\"a,b\\t\\\"c\\\"\",\"x\":0.5}\n"
                + "{\"k\":2,\"x\":-2.0}\n");
        assertThat(err.toString()).as("nothing for statements without rows").isEmpty();
    }

    @Test
    void parquetFileThroughTheEngineWriterReadsBackInDuckDb() throws Exception {
        Path file = dir.resolve("out.parquet");
        printer(OutputFormat.PARQUET, file.toString()).print(StatementKind.QUERY, rows(), null);
        assertThat(err.toString()).isEqualTo("wrote 2 rows to " + file + "\n");
        try (DuckDbOracle duck = new DuckDbOracle()) {
            assertThat(duck.query("SELECT k, s, x FROM read_parquet('" + file + "') ORDER BY k")).isEqualTo(duck.query(
                    "SELECT * FROM (VALUES (1::BIGINT, 'a,b\t\"c\"', 0.5::DOUBLE), (2, NULL, -2.0)) v(k, s, x) ORDER BY k"));
        }
    }

    @Test
    void arrowFileReadsBackWithArrow() throws Exception {
        Path file = dir.resolve("out.arrow");
        printer(OutputFormat.ARROW, file.toString()).print(StatementKind.QUERY, rows(), null);
        try (BufferAllocator allocator = new RootAllocator();
                ArrowFileReader reader = new ArrowFileReader(Files.newByteChannel(file), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            assertThat(reader.loadNextBatch()).isTrue();
            assertThat(root.contentToTSVString()).isEqualTo("k\ts\tx\n1\ta,b\t\"c\"\t0.5\n2\tnull\t-2.0\n");
            assertThat(reader.loadNextBatch()).isFalse();
        }
    }

    @Test
    void anExistingOutputFileIsRefusedByName() throws Exception {
        Path file = Files.writeString(dir.resolve("taken.parquet"), "mine");
        assertThatThrownBy(() -> printer(OutputFormat.PARQUET, file.toString()).print(StatementKind.QUERY, rows(), null))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("the output file " + file + " exists");
        assertThat(Files.readString(file)).isEqualTo("mine");
    }
}
