package io.sluice.datasource.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.SourceTestSupport;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.kernels.ArrowRows;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.source.FileFormat;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CSV reader: inference, quoting, files and errors, and each type parsed straight into its Arrow vector. */
class CsvFormatTest {
    private static final String TABLE = """
            CREATE TABLE t AS
            SELECT i AS id,
                   CASE WHEN i % 7 = 0 THEN NULL ELSE i * 3 - 1000 END AS n,
                   CASE WHEN i % 11 = 0 THEN NULL ELSE i / 7.0 END::DOUBLE AS f,
                   CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 12.34 - 5000)::DECIMAL(12,2) END AS dec,
                   CASE WHEN i % 17 = 0 THEN NULL ELSE DATE '1969-12-01' + i::INTEGER END AS d,
                   CASE WHEN i % 19 = 0 THEN NULL ELSE i % 2 = 0 END AS b,
                   CASE WHEN i % 3 = 0 THEN NULL
                        WHEN i % 3 = 1 THEN 'a, "quoted" ' || i
                        WHEN i % 10 = 2 THEN 'two' || chr(10) || 'lines ' || i
                        WHEN i % 10 = 5 THEN ''
                        ELSE 'é' || i END AS s,
                   CASE WHEN i < 1200 THEN NULL ELSE 'late ' || i END AS late
            FROM range(0, 3000) t(i)
            ORDER BY i
            """;

    private static final Schema EVERY_TYPE = Schema.of(
            new Field("i32", DataType.INT32),
            new Field("i64", DataType.INT64),
            new Field("f", DataType.FLOAT64),
            new Field("dec", DataType.decimal(10, 2)),
            new Field("wide", DataType.decimal(38, 4)),
            new Field("d", DataType.DATE32),
            new Field("ts", DataType.TIMESTAMP),
            new Field("b", DataType.BOOL),
            new Field("s", DataType.UTF8),
            new Field("nothing", DataType.NULL));
    private static final List<Class<?>> VECTOR_CLASSES = List.of(IntVector.class, BigIntVector.class, Float8Vector.class,
            DecimalVector.class, DecimalVector.class, DateDayVector.class, TimeStampMicroVector.class, BitVector.class,
            VarCharVector.class, NullVector.class);

    @TempDir
    Path dir;
    private SourceTestSupport support;
    private final FormatReader reader = FileFormats.reader(FileFormat.CSV);

    @BeforeEach
    void setUp() throws Exception {
        support = new SourceTestSupport();
    }

    @AfterEach
    void tearDown() throws Exception {
        support.close();
    }

    private String writeTable() throws Exception {
        support.execute(TABLE);
        String file = dir.resolve("t.csv").toString();
        support.execute("COPY t TO '" + file + "' (FORMAT CSV, HEADER)");
        return file;
    }

    private String write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file.toString();
    }

    @Test
    void infersTypesFromHeaderAndSample() throws Exception {
        String file = writeTable();
        Schema schema = reader.inferSchema(file);
        assertThat(schema).isEqualTo(Schema.of(
                new Field("id", DataType.INT64),
                new Field("n", DataType.INT64),
                new Field("f", DataType.FLOAT64),
                new Field("dec", DataType.FLOAT64),
                new Field("d", DataType.DATE32),
                new Field("b", DataType.BOOL),
                new Field("s", DataType.UTF8),
                new Field("late", DataType.UTF8)));
        assertThat(FileFormats.register("t", FileFormat.CSV, file).schema()).isEqualTo(schema);
    }

    @Test
    void readsEveryValueAsDuckDbDoes() throws Exception {
        String file = writeTable();
        Schema schema = reader.inferSchema(file);
        assertThat(reader.partitions(file)).singleElement().satisfies(p -> assertThat(p.rowGroup()).isEqualTo(-1));
        List<List<Object>> actual = support.readAll(reader, file, schema, schema.names(), 8192);
        List<List<Object>> expected = support.query("SELECT id, n, f, dec::DOUBLE, d, b, s, late FROM t ORDER BY id");
        assertThat(actual).hasSize(3000);
        assertThat(actual).isEqualTo(expected);
        assertThat(actual.get(0)).containsNull();
        assertThat(actual.get(1).get(6)).isEqualTo("a, \"quoted\" 1");
        assertThat(actual.get(2).get(6)).isEqualTo("two\nlines 2");
        assertThat(actual.get(5).get(6)).isEqualTo("");
        assertThat(actual.get(1).get(4)).isEqualTo(LocalDate.of(1969, 12, 2));
    }

    @Test
    void projectsColumnsInRequestedOrderInSmallBatches() throws Exception {
        String file = writeTable();
        Schema schema = reader.inferSchema(file);
        List<String> columns = List.of("s", "id", "d");
        List<List<Object>> actual = support.readAll(reader, file, schema, columns, 7);
        assertThat(actual).isEqualTo(support.query("SELECT s, id, d FROM t ORDER BY id"));

        ScanPartition partition = reader.partitions(file).get(0);
        try (BatchStream stream = reader.read(partition, schema, List.of("D", "b"), 1000, support.allocator)) {
            List<Integer> sizes = new ArrayList<>();
            for (Batch next = stream.next(); next != null; next = stream.next()) {
                Batch batch = next;
                try (batch) {
                    sizes.add(batch.rowCount());
                    assertThat(batch.schema()).isEqualTo(Schema.of(new Field("d", DataType.DATE32), new Field("b", DataType.BOOL)));
                }
            }
            assertThat(sizes).containsExactly(1000, 1000, 1000);
            assertThat(stream.next()).isNull();
        }
    }

    @Test
    void closingAnUndrainedStreamReleasesEverything() throws Exception {
        String file = writeTable();
        Schema schema = reader.inferSchema(file);
        try (BatchStream stream = reader.read(reader.partitions(file).get(0), schema, schema.names(), 10, support.allocator)) {
            try (Batch batch = stream.next()) {
                assertThat(batch.rowCount()).isEqualTo(10);
            }
        }
    }

    @Test
    void handlesRfc4180Quoting() throws Exception {
        String file = write("q.csv", "id,name,note\r\n"
                + "1,\"a,b\",\"say \"\"hi\"\"\"\r\n"
                + "2,,\"multi\nline\"\r\n"
                + "3,\"\",x\r\n"
                + "4,plain \"inner\" quotes,\n");
        Schema schema = reader.inferSchema(file);
        assertThat(schema.fields()).extracting(Field::type).containsExactly(DataType.INT64, DataType.UTF8, DataType.UTF8);
        List<List<Object>> rows = support.readAll(reader, file, schema, schema.names(), 100);
        assertThat(rows).containsExactly(
                Arrays.asList(1L, "a,b", "say \"hi\""),
                Arrays.asList(2L, null, "multi\nline"),
                Arrays.asList(3L, "", "x"),
                Arrays.asList(4L, "plain \"inner\" quotes", null));
    }

    @Test
    void infersEachKindAndWidens() throws Exception {
        String file = write("kinds.csv", "\uFEFFb,i,f,d,s,big,mixed,nul,bad_date,,int_then_float\n"
                + "TRUE,1,1.5,2024-02-29,x,9223372036854775808,1,,2023-02-28,1,1\n"
                + "false,-2,2,1999-12-31,y,1,2024-01-01,,2023-02-29,2,2.5\n"
                + "\n"
                + "True,,,,,,,,,,\n");
        Schema schema = reader.inferSchema(file);
        assertThat(schema).isEqualTo(Schema.of(
                new Field("b", DataType.BOOL),
                new Field("i", DataType.INT64),
                new Field("f", DataType.FLOAT64),
                new Field("d", DataType.DATE32),
                new Field("s", DataType.UTF8),
                new Field("big", DataType.FLOAT64),
                new Field("mixed", DataType.UTF8),
                new Field("nul", DataType.UTF8),
                new Field("bad_date", DataType.UTF8),
                new Field("column10", DataType.INT64),
                new Field("int_then_float", DataType.FLOAT64)));
        List<List<Object>> rows = support.readAll(reader, file, schema, schema.names(), 2);
        assertThat(rows).containsExactly(
                Arrays.asList(true, 1L, 1.5, LocalDate.of(2024, 2, 29), "x", 9.223372036854775808E18, "1", null, "2023-02-28",
                        1L, 1.0),
                Arrays.asList(false, -2L, 2.0, LocalDate.of(1999, 12, 31), "y", 1.0, "2024-01-01", null, "2023-02-29", 2L,
                        2.5),
                Arrays.asList(true, null, null, null, null, null, null, null, null, null, null));
    }

    @Test
    void singleColumnBlankLinesAreNulls() throws Exception {
        String file = write("one.csv", "v\n1\n\n3\n");
        Schema schema = reader.inferSchema(file);
        assertThat(support.readAll(reader, file, schema, List.of("v"), 10))
                .containsExactly(List.of(1L), Arrays.asList((Object) null), List.of(3L));
    }

    @Test
    void headerOnlyFileHasNoRowsAndTextColumns() throws Exception {
        String file = write("empty.csv", "a,b\n");
        Schema schema = reader.inferSchema(file);
        assertThat(schema).isEqualTo(Schema.of(new Field("a", DataType.UTF8), new Field("b", DataType.UTF8)));
        assertThat(support.readAll(reader, file, schema, List.of("b", "a"), 10)).isEmpty();
        String noNewline = write("empty2.csv", "a,b");
        assertThat(reader.inferSchema(noNewline)).isEqualTo(schema);
        String blank = write("blank.csv", "");
        assertThatThrownBy(() -> reader.inferSchema(blank))
                .isInstanceOf(SluiceException.class).hasMessageContaining("blank.csv").hasMessageContaining("header");
    }

    @Test
    void parsesIntoAnExplicitTableSchema() throws Exception {
        String file = write("amounts.csv", "amount,small\n12.34,1\n-0.5,-2147483648\n,\n7,2147483647\n");
        Schema schema = Schema.of(new Field("amount", DataType.decimal(12, 2)), new Field("small", DataType.INT32));
        List<List<Object>> rows = support.readAll(reader, file, schema, schema.names(), 10);
        assertThat(rows).containsExactly(
                List.of(new BigDecimal("12.34"), 1L),
                List.of(new BigDecimal("-0.5"), -2147483648L),
                Arrays.asList(null, null),
                List.of(new BigDecimal("7"), 2147483647L));
        String tooPrecise = write("precise.csv", "amount,small\n1.234,1\n");
        ScanPartition partition = reader.partitions(tooPrecise).get(0);
        try (BatchStream stream = reader.read(partition, schema, schema.names(), 10, support.allocator)) {
            assertThatThrownBy(stream::next).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("precise.csv").hasMessageContaining("line 2")
                    .hasMessageContaining("'amount'").hasMessageContaining("'1.234'");
        }
    }

    @Test
    void readsADirectoryOfFilesInNameOrder() throws Exception {
        Path table = Files.createDirectory(dir.resolve("table"));
        Files.writeString(table.resolve("part-2.csv"), "id,name\n3,c\n");
        Files.writeString(table.resolve("part-1.csv"), "id,name\n1,a\n2,\"b,b\"\n");
        Files.writeString(table.resolve("_SUCCESS"), "");
        Files.writeString(table.resolve(".part-1.csv.crc"), "junk");
        String location = table.toUri().toString();
        Schema schema = reader.inferSchema(location);
        assertThat(reader.partitions(location)).extracting(p -> p.path().substring(p.path().lastIndexOf('/') + 1))
                .containsExactly("part-1.csv", "part-2.csv");
        assertThat(support.readAll(reader, location, schema, List.of("name", "id"), 1))
                .containsExactly(List.of("a", 1L), List.of("b,b", 2L), List.of("c", 3L));

        Files.writeString(table.resolve("part-3.csv"), "id,other\n4,d\n");
        ScanPartition third = reader.partitions(location).get(2);
        assertThatThrownBy(() -> reader.read(third, schema, List.of("id"), 10, support.allocator))
                .isInstanceOf(SluiceException.class).hasMessageContaining("part-3.csv").hasMessageContaining("header");
    }

    @Test
    void readsCompressedFilesByTheirSuffix() throws Exception {
        support.execute(TABLE);
        String file = dir.resolve("t.csv.gz").toString();
        support.execute("COPY t TO '" + file + "' (FORMAT CSV, HEADER, COMPRESSION gzip)");
        Schema schema = reader.inferSchema(file);
        assertThat(schema.field("d").type()).isEqualTo(DataType.DATE32);
        assertThat(support.readAll(reader, file, schema, List.of("id", "s"), 1000))
                .isEqualTo(support.query("SELECT id, s FROM t ORDER BY id"));
    }

    @Test
    void missingFileIsNamed() throws Exception {
        String missing = dir.resolve("nope.csv").toString();
        assertThatThrownBy(() -> reader.inferSchema(missing))
                .isInstanceOf(SluiceException.class).hasMessageContaining("file not found").hasMessageContaining(missing);
        assertThatThrownBy(() -> reader.partitions(missing))
                .isInstanceOf(SluiceException.class).hasMessageContaining("file not found").hasMessageContaining(missing);
        assertThatThrownBy(() -> FileFormats.register("t", FileFormat.CSV, "file://" + missing))
                .isInstanceOf(SluiceException.class).hasMessageContaining(missing);

        String gone = write("gone.csv", "a\n1\n");
        Schema schema = reader.inferSchema(gone);
        ScanPartition partition = reader.partitions(gone).get(0);
        Files.delete(Path.of(gone));
        assertThatThrownBy(() -> reader.read(partition, schema, List.of("a"), 10, support.allocator))
                .isInstanceOf(SluiceException.class).hasMessageContaining("file not found").hasMessageContaining("gone.csv");
    }

    @Test
    void malformedRowNamesFileAndLine() throws Exception {
        String file = write("malformed.csv", "a,b,c\n1,2,3\n4,5,6\n7,8\n");
        assertThatThrownBy(() -> reader.inferSchema(file))
                .isInstanceOf(SluiceException.class).hasMessageContaining("malformed.csv").hasMessageContaining("line 4");
        Schema schema = Schema.of(new Field("a", DataType.INT64), new Field("b", DataType.INT64),
                new Field("c", DataType.INT64));
        assertThatThrownBy(() -> support.readAll(reader, file, schema, List.of("a"), 10))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("malformed.csv").hasMessageContaining("line 4")
                .hasMessageContaining("expected 3 fields but found 2");
        String early = write("early.csv", "a,b\n1,2,3\n");
        assertThatThrownBy(() -> reader.inferSchema(early))
                .isInstanceOf(SluiceException.class).hasMessageContaining("early.csv").hasMessageContaining("line 2");
        String unterminated = write("open.csv", "a,b\n1,\"never\nclosed\n");
        Schema open = Schema.of(new Field("a", DataType.INT64), new Field("b", DataType.UTF8));
        assertThatThrownBy(() -> support.readAll(reader, unterminated, open, open.names(), 10))
                .isInstanceOf(SluiceException.class).hasMessageContaining("open.csv").hasMessageContaining("line 2")
                .hasMessageContaining("unterminated");
    }

    @Test
    void badValueInALaterRowNamesFileLineColumnAndValue() throws Exception {
        StringBuilder csv = new StringBuilder("id,v\n");
        for (int i = 0; i < 1500; i++) {
            csv.append(i).append(',').append(i * 2).append('\n');
        }
        csv.append("1500,abc\n");
        String file = write("late.csv", csv.toString());
        Schema schema = reader.inferSchema(file);
        assertThat(schema.field("v").type()).isEqualTo(DataType.INT64);
        assertThatThrownBy(() -> support.readAll(reader, file, schema, List.of("v", "id"), 512))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("late.csv").hasMessageContaining("line 1502")
                .hasMessageContaining("column 'v'").hasMessageContaining("'abc'");
        // A column that is not read is not parsed.
        assertThat(support.readAll(reader, file, schema, List.of("id"), 512)).hasSize(1501);
    }

    /** Every batch's columns as the scan made them (asserted to be Arrow vectors only), decoded to rows. */
    private List<List<Object>> readVectors(String file, Schema schema, int batchSize, Map<String, String> options) {
        List<List<Object>> rows = new ArrayList<>();
        try (BatchStream stream = reader.read(reader.partitions(file, options).get(0), schema, schema.names(), batchSize,
                support.allocator, options, null)) {
            for (Batch next = stream.next(); next != null; next = stream.next()) {
                try (Batch batch = next) {
                    for (int c = 0; c < schema.size(); c++) {
                        assertThat(batch.hasColumn(c)).as("column %s held on the heap", c).isFalse();
                        assertThat(batch.arrowVector(c)).as("column %s", c).isNotNull();
                        assertThat(batch.arrowVector(c).getValueCount()).isEqualTo(batch.rowCount());
                    }
                    rows.addAll(ArrowRows.of(batch));
                }
            }
        }
        return rows;
    }

    @Test
    void parsesEveryTypeAndNullStraightIntoArrowVectors() throws Exception {
        String file = write("types.csv", "i32,i64,f,dec,wide,d,ts,b,s,nothing\n"
                + "-2147483648,9223372036854775807,1.5,-12.34,12345678901234567890123.4567,2024-02-29,"
                + "2024-02-29 13:14:15.123456,TRUE,plain,\n"
                + ",,,,,,,,,\n"
                + "2147483647,-9223372036854775808,-0.0,0.1,-0.0001,1969-12-31,1970-01-01T00:00,false,\"\",\n"
                + "0,0,NaN,99999999.99,-1.5,0001-01-01,1969-12-31 23:59:59.999999,true,\"é€𝄞, \"\"ünï\"\"\",\n");
        try (BatchStream stream = reader.read(reader.partitions(file).get(0), EVERY_TYPE, EVERY_TYPE.names(), 10,
                support.allocator)) {
            try (Batch batch = stream.next()) {
                for (int c = 0; c < EVERY_TYPE.size(); c++) {
                    assertThat(batch.arrowVector(c)).as("column %s", c).isInstanceOf(VECTOR_CLASSES.get(c));
                }
            }
        }
        List<List<Object>> rows = readVectors(file, EVERY_TYPE, 2, Map.of());
        assertThat(rows).containsExactly(
                Arrays.asList(Integer.MIN_VALUE, Long.MAX_VALUE, 1.5, new BigDecimal("-12.34"),
                        new BigDecimal("12345678901234567890123.4567"), LocalDate.of(2024, 2, 29),
                        LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000), true, "plain", null),
                Arrays.asList(null, null, null, null, null, null, null, null, null, null),
                Arrays.asList(Integer.MAX_VALUE, Long.MIN_VALUE, -0.0, new BigDecimal("0.10"), new BigDecimal("-0.0001"),
                        LocalDate.of(1969, 12, 31), LocalDateTime.of(1970, 1, 1, 0, 0), false, "", null),
                Arrays.asList(0, 0L, Double.NaN, new BigDecimal("99999999.99"), new BigDecimal("-1.5000"),
                        LocalDate.of(1, 1, 1), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000), true,
                        "é€𝄞, \"ünï\"", null));
    }

    @Test
    void aBadValueOfEachTypeNamesFileLineColumnAndValue() throws Exception {
        String[][] cases = {
            {"i32", "2147483648"}, {"i64", "1.5"}, {"f", "1e"}, {"dec", "123456789.1"}, {"wide", "1.23456"},
            {"d", "2023-02-29"}, {"ts", "yesterday"}, {"b", "yes"}, {"nothing", "x"},
        };
        for (String[] c : cases) {
            int column = EVERY_TYPE.indexOf(c[0]);
            String[] good = {"1", "2", "3.5", "4.25", "5", "2020-01-01", "2020-01-01 00:00:00", "true", "s", ""};
            String[] bad = good.clone();
            bad[column] = c[1];
            String file = write("bad_" + c[0] + ".csv", String.join(",", EVERY_TYPE.names()) + "\n"
                    + String.join(",", good) + "\n" + String.join(",", bad) + "\n");
            assertThatThrownBy(() -> readVectors(file, EVERY_TYPE, 10, Map.of()))
                    .as(c[0]).isInstanceOf(SluiceException.class)
                    .hasMessage("file:" + file + ": line 3, column '" + c[0] + "': cannot parse '" + c[1] + "' as "
                            + EVERY_TYPE.field(column).type());
            List<List<Object>> permissive = readVectors(file, EVERY_TYPE, 10, Map.of("mode", "PERMISSIVE"));
            assertThat(permissive).hasSize(2);
            assertThat(permissive.get(1).get(column)).as(c[0]).isNull();
            assertThat(permissive.get(1).get(8)).isEqualTo("s");
            assertThat(readVectors(file, EVERY_TYPE, 10, Map.of("mode", "DROPMALFORMED"))).hasSize(1);
        }
    }

    @Test
    void aDroppedRowLeavesNoValueBehindInTheColumnsBeforeIt() throws Exception {
        // Row 2's bad number is found after its string and flag were written; the NULLs and values
        // of the rows after it must not show what the dropped row left in the buffers.
        String file = write("drop.csv", "s,flag,n\n"
                + "kept,true,1\n"
                + "dropped,true,bad\n"
                + ",,3\n"
                + "é,false,4\n"
                + "gone,false,x\n");
        Schema schema = Schema.of(new Field("s", DataType.UTF8), new Field("flag", DataType.BOOL),
                new Field("n", DataType.INT64));
        assertThat(readVectors(file, schema, 10, Map.of("mode", "DROPMALFORMED"))).containsExactly(
                List.of("kept", true, 1L),
                Arrays.asList(null, null, 3L),
                List.of("é", false, 4L));
    }

    @Test
    void batchesGrowPastTheFirstCapacityAndMatchDuckDb() throws Exception {
        support.execute("""
                CREATE TABLE g AS
                SELECT i AS id,
                       CASE WHEN i % 5 = 0 THEN NULL ELSE repeat('x', i % 97) || i END AS s,
                       CASE WHEN i % 7 = 0 THEN NULL ELSE i * 0.25 END::DECIMAL(12, 2) AS amount,
                       CASE WHEN i % 3 = 0 THEN NULL ELSE i % 2 = 0 END AS b
                FROM range(0, 12000) t(i)
                ORDER BY i
                """);
        String file = dir.resolve("g.csv").toString();
        support.execute("COPY g TO '" + file + "' (FORMAT CSV, HEADER)");
        Schema schema = Schema.of(new Field("id", DataType.INT64), new Field("s", DataType.UTF8),
                new Field("amount", DataType.decimal(12, 2)), new Field("b", DataType.BOOL));
        List<List<Object>> rows = readVectors(file, schema, 5000, Map.of());
        List<List<Object>> expected = support.query("SELECT id, s, amount, b FROM g ORDER BY id");
        assertThat(rows).hasSize(12000);
        assertThat(rows.stream().map(row -> row.stream().map(SourceTestSupport::normalize).toList()).toList())
                .isEqualTo(expected);
    }

    @Test
    void theVectorsAreTheTasksMemoryAndAreFreedWhenTheReadFails() throws Exception {
        String file = write("big.csv", "s\n" + ("y".repeat(200) + "\n").repeat(4000));
        Schema schema = Schema.of(new Field("s", DataType.UTF8));
        try (BufferAllocator task = support.allocator.newChildAllocator("task", 0, 512 << 10)) {
            try (BatchStream stream = reader.read(reader.partitions(file).get(0), schema, List.of("s"), 4000, task)) {
                assertThatThrownBy(stream::next).isInstanceOf(OutOfMemoryException.class);
            }
            assertThat(task.getAllocatedMemory()).isZero();
            try (BatchStream stream = reader.read(reader.partitions(file).get(0), schema, List.of("s"), 1000, task)) {
                try (Batch batch = stream.next()) {
                    assertThat(batch.rowCount()).isEqualTo(1000);
                    assertThat(task.getAllocatedMemory()).isGreaterThanOrEqualTo(1000 * 200L);
                }
            }
            assertThat(task.getAllocatedMemory()).isZero();
        }
    }
}
