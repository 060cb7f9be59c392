package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.SourceTestSupport;
import io.sluice.datasource.file.CloseAwareFileSystem;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetFormatTest {
    private static final String ROWS = """
            SELECT i AS id,
                   CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 3 - 1000)::INTEGER END AS i32,
                   CASE WHEN i % 5 = 0 THEN NULL ELSE i::BIGINT * 1000000007 END AS i64,
                   CASE WHEN i % 11 = 0 THEN NULL ELSE i / 7.0 END::DOUBLE AS f64,
                   (i / 3.0)::REAL AS f32,
                   CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 12.34 - 5000)::DECIMAL(12,2) END AS dec,
                   (i * 1.5 - 100)::DECIMAL(5,1) AS small_dec,
                   (i * 10.125)::DECIMAL(18,3) AS big_dec,
                   CASE WHEN i % 17 = 0 THEN NULL ELSE DATE '1969-12-01' + i::INTEGER END AS d,
                   CASE WHEN i % 19 = 0 THEN NULL ELSE i % 2 = 0 END AS b,
                   CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN 'a, "quoted" ' || i ELSE 'é' || i END AS s,
                   (i % 100)::TINYINT AS tiny,
                   (4000000000 + i)::UINTEGER AS u32
            FROM range(0, 5000) t(i)
            ORDER BY i
            """;

    @TempDir
    Path dir;
    private SourceTestSupport support;
    private final FormatReader reader = FileFormats.reader(FileFormat.PARQUET);

    @BeforeEach
    void setUp() throws Exception {
        support = new SourceTestSupport();
    }

    @AfterEach
    void tearDown() throws Exception {
        support.close();
    }

    private String write(String name, String query) throws Exception {
        String file = dir.resolve(name).toString();
        support.execute("COPY (" + query + ") TO '" + file + "' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)");
        return file;
    }

    /**
     * Row groups of at least a megabyte are read in runs of consecutive row groups, one partition a
     * byte range of the file (DuckDB's 122,880-row groups would otherwise each be a task): every row
     * read once, the run's statistics merged; row groups of a few kilobytes stay a partition each.
     */
    @Test
    void largeEnoughRowGroupsAreReadInRunsOfOnePartition() throws Exception {
        String file = dir.resolve("runs.parquet").toString();
        support.execute("COPY (SELECT i AS id, i * 7 AS a, -i AS b, 'x' || (i % 1000) AS s FROM range(150000) t(i)) TO '"
                + file + "' (FORMAT PARQUET, ROW_GROUP_SIZE 50000)");
        List<ScanPartition> partitions = reader.partitions(file);
        assertThat(partitions).hasSize(1);
        ScanPartition run = partitions.get(0);
        assertThat(run.isRange()).isTrue();
        assertThat(run.stats("id").min()).isEqualTo(0L);
        assertThat(run.stats("id").max()).isEqualTo(149_999L);
        assertThat(run.stats("b").min()).isEqualTo(-149_999L);
        assertThat(run.stats("s").nullCount()).isZero();
        Schema schema = reader.inferSchema(file);
        List<List<Object>> rows = support.readAll(reader, file, schema, List.of("id", "a", "s"), 7000);
        List<List<Object>> expected = new java.util.ArrayList<>();
        for (int i = 0; i < 150_000; i++) {
            expected.add(List.of((long) i, i * 7L, "x" + i % 1000));
        }
        assertThat(rows).isEqualTo(expected);
        assertThat(reader.partitions(write("small.parquet", "SELECT i AS id FROM range(5000) t(i)")))
                .hasSizeGreaterThan(1).allMatch(p -> !p.isRange() && p.rowGroup() >= 0);
    }

    @Test
    void infersTypesFromTheFooter() throws Exception {
        String file = write("all.parquet", ROWS);
        Schema schema = reader.inferSchema(file);
        assertThat(schema).isEqualTo(Schema.of(
                new Field("id", DataType.INT64),
                new Field("i32", DataType.INT32),
                new Field("i64", DataType.INT64),
                new Field("f64", DataType.FLOAT64),
                new Field("f32", DataType.FLOAT64),
                new Field("dec", DataType.decimal(12, 2)),
                new Field("small_dec", DataType.decimal(5, 1)),
                new Field("big_dec", DataType.decimal(18, 3)),
                new Field("d", DataType.DATE32),
                new Field("b", DataType.BOOL),
                new Field("s", DataType.UTF8),
                new Field("tiny", DataType.INT32),
                new Field("u32", DataType.INT64)));
        TableSource table = FileFormats.register("t", FileFormat.PARQUET, file);
        assertThat(table.schema()).isEqualTo(schema);
        assertThat(table.format()).isEqualTo(FileFormat.PARQUET);
    }

    @Test
    void readsEveryValueAsDuckDbDoes() throws Exception {
        String file = write("all.parquet", ROWS);
        Schema schema = reader.inferSchema(file);
        List<ScanPartition> partitions = reader.partitions(file);
        assertThat(partitions).hasSizeGreaterThan(1);
        assertThat(partitions).allSatisfy(p -> assertThat(p.rowGroup()).isNotNegative());
        assertThat(partitions.stream().map(ScanPartition::rowGroup).toList())
                .isEqualTo(java.util.stream.IntStream.range(0, partitions.size()).boxed().toList());

        List<List<Object>> actual = support.readAll(reader, file, schema, schema.names(), 8192);
        List<List<Object>> expected = support.query("SELECT * FROM read_parquet('" + file + "') ORDER BY id");
        actual.sort(Comparator.comparing(row -> (Long) row.get(0)));
        assertThat(actual).hasSize(5000);
        assertThat(actual).isEqualTo(expected);
        // Spot checks that the comparison covers NULLs, decimals, dates and strings.
        assertThat(actual.get(0)).containsNull();
        assertThat(actual.get(1).get(5)).isEqualTo(new java.math.BigDecimal("-4987.66"));
        assertThat(actual.get(1).get(8)).isEqualTo(java.time.LocalDate.of(1969, 12, 2));
        assertThat(actual.get(1).get(10)).isEqualTo("a, \"quoted\" 1");
    }

    @Test
    void projectsColumnsInRequestedOrderInSmallBatches() throws Exception {
        String file = write("all.parquet", ROWS);
        Schema schema = reader.inferSchema(file);
        List<String> columns = List.of("s", "ID", "dec", "d");
        List<List<Object>> actual = support.readAll(reader, file, schema, List.of("s", "id", "dec", "d"), 300);
        List<List<Object>> expected = support.query("SELECT s, id, dec, d FROM read_parquet('" + file + "') ORDER BY id");
        actual.sort(Comparator.comparing(row -> (Long) row.get(1)));
        assertThat(actual).isEqualTo(expected);

        // Names resolve case-insensitively; the batch carries the table's spelling.
        ScanPartition first = reader.partitions(file).get(0);
        try (BatchStream stream = reader.read(first, schema, columns, 300, support.allocator)) {
            int batches = 0;
            for (Batch next = stream.next(); next != null; next = stream.next()) {
                Batch batch = next;
                try (batch) {
                    batches++;
                    assertThat(batch.rowCount()).isLessThanOrEqualTo(300);
                    assertThat(batch.schema().names()).containsExactly("s", "id", "dec", "d");
                }
            }
            assertThat(batches).isGreaterThan(1);
        }
    }

    /**
     * A run's next row groups are read ahead while one is decoded; closing the stream while they are
     * read (a cancelled task) waits for them and closes every file stream they opened, and the
     * allocator ends at zero. Read ahead or not, the rows are the file's, in order.
     */
    @Test
    void closingARunWhileItsNextRowGroupsAreReadAheadClosesEverything() throws Exception {
        String impl = HadoopConfiguration.PREFIX + "fs." + CloseAwareFileSystem.SCHEME + ".impl";
        System.setProperty(impl, CloseAwareFileSystem.class.getName());
        try {
            Path local = dir.resolve("ahead.parquet");
            support.execute("COPY (SELECT i AS id, i * 7 AS a, -i AS b, 'x' || (i % 1000) AS s FROM range(200000) t(i)) TO '"
                    + local + "' (FORMAT PARQUET, ROW_GROUP_SIZE 50000)");
            String file = CloseAwareFileSystem.SCHEME + "://" + local.toAbsolutePath();
            List<ScanPartition> partitions = reader.partitions(file);
            assertThat(partitions).hasSize(1).allMatch(ScanPartition::isRange);
            Schema schema = reader.inferSchema(file);
            int openBefore = CloseAwareFileSystem.openStreams();
            for (int attempt = 0; attempt < 5; attempt++) {
                BatchStream stream = reader.read(partitions.get(0), schema, List.of("id", "s"), 1000, support.allocator);
                try (Batch batch = stream.next()) {
                    assertThat(batch.rowCount()).isEqualTo(1000);
                }
                stream.close();
                assertThat(CloseAwareFileSystem.openStreams()).as("file streams open after closing mid read-ahead")
                        .isEqualTo(openBefore);
                assertThat(support.allocator.getAllocatedMemory()).isZero();
            }
            List<List<Object>> rows = support.readAll(reader, file, schema, List.of("id", "s"), 7000);
            assertThat(rows).hasSize(200_000);
            for (int i = 0; i < rows.size(); i += 997) {
                assertThat(rows.get(i)).isEqualTo(List.of((long) i, "x" + i % 1000));
            }
            assertThat(CloseAwareFileSystem.openStreams()).isEqualTo(openBefore);
        } finally {
            System.clearProperty(impl);
        }
    }

    @Test
    void closingAnUndrainedStreamReleasesEverything() throws Exception {
        String file = write("all.parquet", ROWS);
        Schema schema = reader.inferSchema(file);
        ScanPartition first = reader.partitions(file).get(0);
        try (BatchStream stream = reader.read(first, schema, schema.names(), 100, support.allocator)) {
            try (Batch batch = stream.next()) {
                assertThat(batch.rowCount()).isEqualTo(100);
            }
        }
    }

    @Test
    void readsNoColumnsForCounting() throws Exception {
        String file = write("all.parquet", ROWS);
        Schema schema = reader.inferSchema(file);
        long rows = 0;
        for (ScanPartition partition : reader.partitions(file)) {
            try (BatchStream stream = reader.read(partition, schema, List.of(), 4096, support.allocator)) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    Batch batch = next;
                    try (batch) {
                        rows += batch.rowCount();
                    }
                }
            }
        }
        assertThat(rows).isEqualTo(5000);
    }

    @Test
    void readsADirectoryOfFilesInNameOrder() throws Exception {
        Path table = Files.createDirectory(dir.resolve("table"));
        support.execute("COPY (SELECT i AS id, 'x' || i AS s FROM range(0, 10) t(i)) TO '"
                + table.resolve("b.parquet") + "' (FORMAT PARQUET)");
        support.execute("COPY (SELECT i AS id, 'x' || i AS s FROM range(10, 13) t(i)) TO '"
                + table.resolve("a.parquet") + "' (FORMAT PARQUET)");
        Files.writeString(table.resolve("_SUCCESS"), "");
        Files.writeString(table.resolve(".hidden.parquet"), "not parquet");
        String location = table.toUri().toString();
        assertThat(location).startsWith("file:");

        Schema schema = reader.inferSchema(location);
        List<ScanPartition> partitions = reader.partitions(location);
        assertThat(partitions).extracting(p -> p.path().substring(p.path().lastIndexOf('/') + 1))
                .containsExactly("a.parquet", "b.parquet");
        List<List<Object>> rows = support.readAll(reader, location, schema, List.of("id"), 8192);
        assertThat(rows).extracting(row -> row.get(0)).containsExactly(10L, 11L, 12L, 0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void missingFileIsNamed() {
        String missing = dir.resolve("nope.parquet").toString();
        assertThatThrownBy(() -> reader.inferSchema(missing))
                .isInstanceOf(SluiceException.class).hasMessageContaining("file not found").hasMessageContaining(missing);
        assertThatThrownBy(() -> reader.partitions(missing))
                .isInstanceOf(SluiceException.class).hasMessageContaining(missing);
        assertThatThrownBy(() -> FileFormats.register("t", FileFormat.PARQUET, missing))
                .isInstanceOf(SluiceException.class).hasMessageContaining(missing);
    }

    @Test
    void corruptFileIsNamed() throws Exception {
        Path bad = dir.resolve("bad.parquet");
        Files.writeString(bad, "id,name\n1,not parquet at all\n");
        assertThatThrownBy(() -> reader.inferSchema(bad.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("bad.parquet");
        assertThatThrownBy(() -> reader.partitions(bad.toString()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("bad.parquet");
    }

    @Test
    void unsupportedTypesNameTheColumnAndItsParquetType() throws Exception {
        String ts = write("time.parquet", "SELECT 1 AS id, TIME '10:00:00' AS happened");
        assertThatThrownBy(() -> reader.inferSchema(ts))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("happened").hasMessageContaining("int64").hasMessageContaining("time.parquet");
        String nested = write("nested.parquet", "SELECT 1 AS id, [TIME '10:00:00'] AS xs");
        assertThatThrownBy(() -> reader.inferSchema(nested))
                .isInstanceOf(SluiceException.class).hasMessageContaining("nested column 'xs'").hasMessageContaining("int64")
                .hasMessageContaining("nested.parquet");
    }

    @Test
    void readsTimestampsOfEveryUnit() throws Exception {
        String file = write("timestamps.parquet", """
                SELECT i AS id, t AS us, CAST(t AS TIMESTAMP_MS) AS ms, CAST(t AS TIMESTAMP_NS) AS ns,
                       CASE WHEN i % 3 = 0 THEN NULL ELSE t END AS maybe
                FROM (SELECT i, TIMESTAMP '1969-12-31 23:00:00' + to_microseconds(i * 1234567891) AS t
                      FROM range(0, 3000) r(i))""");
        Schema schema = reader.inferSchema(file);
        assertThat(schema.fields()).allSatisfy(f -> assertThat(f.type())
                .isEqualTo(f.name().equals("id") ? DataType.INT64 : DataType.TIMESTAMP));
        List<List<Object>> actual = support.readAll(reader, file, schema, schema.names(), 700);
        actual.sort(Comparator.comparing(row -> (Long) row.get(0)));
        assertThat(actual).isEqualTo(support.query("SELECT * FROM read_parquet('" + file + "') ORDER BY id"));
    }

    @Test
    void typeDifferingFromTheTableIsNamed() throws Exception {
        String file = write("ints.parquet", "SELECT 1::INTEGER AS id");
        Schema table = Schema.of(new Field("id", DataType.INT64));
        ScanPartition partition = reader.partitions(file).get(0);
        assertThatThrownBy(() -> reader.read(partition, table, List.of("id"), 10, support.allocator))
                .isInstanceOf(SluiceException.class).hasMessageContaining("ints.parquet").hasMessageContaining("'id'");
    }

    @Test
    void readsByteArrayBackedDecimals() throws Exception {
        MessageType type = MessageTypeParser.parseMessageType(
                "message m { required fixed_len_byte_array(8) fixed (DECIMAL(18,2)); optional binary var (DECIMAL(10,3)); }");
        String file = dir.resolve("decimals.parquet").toString();
        long[] unscaled = {0, 1, -1, 123_456_789_012_345_678L, -999_999_999_999_999_999L, 256};
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> writer = ExampleParquetWriter
                .builder(new org.apache.hadoop.fs.Path(file)).withType(type).withConf(HadoopConfiguration.shared()).build()) {
            for (int i = 0; i < unscaled.length; i++) {
                Group row = groups.newGroup().append("fixed",
                        Binary.fromConstantByteArray(ByteBuffer.allocate(8).putLong(unscaled[i]).array()));
                if (i % 2 == 0) {
                    row.append("var", Binary.fromConstantByteArray(BigInteger.valueOf(unscaled[i] % 10_000_000_000L).toByteArray()));
                }
                writer.write(row);
            }
        }
        Schema schema = reader.inferSchema(file);
        assertThat(schema).isEqualTo(Schema.of(new Field("fixed", DataType.decimal(18, 2)),
                new Field("var", DataType.decimal(10, 3))));
        List<List<Object>> rows = support.readAll(reader, file, schema, schema.names(), 4);
        assertThat(rows).hasSize(unscaled.length);
        for (int i = 0; i < unscaled.length; i++) {
            assertThat(rows.get(i).get(0)).isEqualTo(BigDecimal.valueOf(unscaled[i], 2).stripTrailingZeros());
            Object expected = i % 2 == 0 ? BigDecimal.valueOf(unscaled[i] % 10_000_000_000L, 3).stripTrailingZeros() : null;
            assertThat(rows.get(i).get(1)).isEqualTo(expected);
        }
    }

    /** DuckDB writes DECIMAL(38, s) as 16-byte FIXED_LEN_BYTE_ARRAY: every value, past a long or not, reads back as DuckDB reads it. */
    @Test
    void readsDecimalsOfPrecisionThirtyEight() throws Exception {
        String file = write("wide.parquet", """
                SELECT i AS id,
                       CASE WHEN i % 7 = 3 THEN NULL
                            WHEN i % 2 = 0 THEN (CASE WHEN i % 4 = 0 THEN '-' ELSE '' END || '99999999999999999999999999999'
                                                 || i || '.' || (i % 100))::DECIMAL(38,2)
                            ELSE (CAST(i - 500 AS DECIMAL(20,2)) * 0.37)::DECIMAL(38,2) END AS amount,
                       (i * 1000000007)::DECIMAL(20,0) AS mid
                FROM range(0, 3000) r(i)""");
        Schema schema = reader.inferSchema(file);
        assertThat(schema.field(1).type()).isEqualTo(DataType.decimal(38, 2));
        assertThat(schema.field(2).type()).isEqualTo(DataType.decimal(20, 0));
        List<List<Object>> actual = support.readAll(reader, file, schema, schema.names(), 700);
        actual.sort(Comparator.comparing(row -> (Long) row.get(0)));
        assertThat(actual).isEqualTo(support.query("SELECT * FROM read_parquet('" + file + "') ORDER BY id"));
        assertThat(actual.get(2).get(1)).isEqualTo(new BigDecimal("999999999999999999999999999992.2"));
        assertThat(actual.get(4).get(1)).isEqualTo(new BigDecimal("-999999999999999999999999999994.4"));
    }

    @Test
    void decodesBigEndianUnscaledDecimals() {
        assertThat(PageNumbers.unscaled(Binary.fromConstantByteArray(new byte[] {0x01, 0x00}))).isEqualTo(256);
        assertThat(PageNumbers.unscaled(Binary.fromConstantByteArray(new byte[] {(byte) 0xFF, 0x00})))
                .isEqualTo(-256);
        byte[] sixteen = new byte[16];
        java.util.Arrays.fill(sixteen, (byte) 0xFF);
        sixteen[15] = (byte) 0xFE;
        assertThat(PageNumbers.unscaled(Binary.fromConstantByteArray(sixteen))).isEqualTo(-2);
        byte[] max = java.math.BigInteger.valueOf(999_999_999_999_999_999L).toByteArray();
        assertThat(PageNumbers.unscaled(Binary.fromConstantByteArray(max))).isEqualTo(999_999_999_999_999_999L);
    }
}
