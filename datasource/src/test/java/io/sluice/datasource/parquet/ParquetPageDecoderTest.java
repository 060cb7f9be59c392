package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.SourceTestSupport;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.filter.PredicateRowFilter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The page decoder on files parquet-mr writes with v1 and v2 pages: many small pages, NULLs,
 * dictionaries that overflow into PLAIN pages mid-chunk, multi-byte UTF-8, and batches that
 * straddle page boundaries.
 */
class ParquetPageDecoderTest {
    private static final int ROWS = 20_000;
    private static final MessageType TYPE = MessageTypeParser.parseMessageType("""
            message m {
              required int64 id;
              required int32 small;
              optional int64 big;
              optional double ratio;
              optional binary s (UTF8);
              optional int32 d (DATE);
            }""");

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

    private static List<Object> expectedRow(int i) {
        return Arrays.asList((long) i, (long) (i % 50 - 25), i % 9 == 0 ? null : i * 1_000_000_007L,
                i % 7 == 0 ? null : i / 3.0,
                i % 5 == 0 ? null : i < ROWS / 2 ? "k" + i % 10 : "é€" + i,
                i % 11 == 0 ? null : LocalDate.ofEpochDay(i % 400));
    }

    @ParameterizedTest
    @EnumSource(WriterVersion.class)
    void readsWhatParquetMrWrites(WriterVersion version) throws Exception {
        String file = write(version);
        // Dictionary and PLAIN pages both occur (v2 files also use DELTA encodings).
        Set<Encoding> used = new java.util.HashSet<>();
        try (ParquetFileReader footer = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file), HadoopConfiguration.shared()))) {
            for (ColumnChunkMetaData chunk : footer.getRowGroups().get(0).getColumns()) {
                used.addAll(chunk.getEncodings());
            }
        }
        assertThat(used).contains(Encoding.PLAIN);
        assertThat(used).containsAnyOf(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
        Schema schema = reader.inferSchema(file);
        List<List<Object>> actual = support.readAll(reader, file, schema, schema.names(), 333);
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            expected.add(expectedRow(i).stream().map(SourceTestSupport::normalize).collect(Collectors.toList()));
        }
        assertThat(actual).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            assertThat(actual.get(i)).as("row " + i).isEqualTo(expected.get(i));
        }
    }

    /**
     * Read late under a filter on {@code id}, the other columns (NULLs, dictionary, PLAIN and, in v2
     * files, DELTA pages) are decoded only for the rows that pass, across page and batch boundaries:
     * single rows, short runs, whole batches kept, and thousands of rows (many pages) passed over;
     * the rows are exactly those the filter keeps of a full read. A filter on a nullable string
     * column (NULL never passes) reads the numbers late.
     */
    @ParameterizedTest
    @EnumSource(WriterVersion.class)
    void decodesOnlyTheRowsAFilterKeeps(WriterVersion version) throws Exception {
        String file = write(version);
        Schema schema = reader.inferSchema(file);
        Expr id = new Column("id");
        Expr sparse = or(or(new Binary(BinaryOp.LT, new Binary(BinaryOp.MODULO, id, Literal.of(1000L)), Literal.of(3L)),
                new Binary(BinaryOp.EQ, new Binary(BinaryOp.MODULO, id, Literal.of(617L)), Literal.of(0L))),
                new Binary(BinaryOp.AND, new Binary(BinaryOp.GT_EQ, id, Literal.of(5000L)),
                        new Binary(BinaryOp.LT, id, Literal.of(5700L))));
        Expr predicate = new Binary(BinaryOp.AND, sparse, or(new Binary(BinaryOp.LT, id, Literal.of(10_000L)),
                new Binary(BinaryOp.GT, id, Literal.of(15_000L))));
        for (int batchSize : new int[] {333, 8192}) {
            List<List<Object>> expected = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
                if ((i % 1000 < 3 || i % 617 == 0 || i >= 5000 && i < 5700) && (i < 10_000 || i > 15_000)) {
                    expected.add(expectedRow(i).stream().map(SourceTestSupport::normalize).collect(Collectors.toList()));
                }
            }
            assertThat(support.readAll(reader, file, schema, schema.names(), batchSize, Map.of(),
                    new PredicateRowFilter(predicate))).as("batches of " + batchSize).isEqualTo(expected);
        }
        Expr strings = or(new Binary(BinaryOp.EQ, new Column("s"), Literal.of("k3")),
                new Binary(BinaryOp.EQ, new Column("s"), Literal.of("\u00e9\u20ac12346")));
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            Object s = expectedRow(i).get(4);
            if ("k3".equals(s) || "\u00e9\u20ac12346".equals(s)) {
                expected.add(expectedRow(i).stream().map(SourceTestSupport::normalize).collect(Collectors.toList()));
            }
        }
        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(support.readAll(reader, file, schema, schema.names(), 1000, Map.of(), new PredicateRowFilter(strings)))
                .isEqualTo(expected);
    }

    private static Expr or(Expr left, Expr right) {
        return new Binary(BinaryOp.OR, left, right);
    }

    /** The test table written by parquet-mr with small pages and a dictionary that overflows into PLAIN pages. */
    private String write(WriterVersion version) throws Exception {
        String file = dir.resolve(version + ".parquet").toString();
        SimpleGroupFactory groups = new SimpleGroupFactory(TYPE);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file))
                .withType(TYPE).withConf(HadoopConfiguration.shared()).withWriterVersion(version)
                .withPageSize(4096).withDictionaryPageSize(4096).withPageRowCountLimit(700).build()) {
            for (int i = 0; i < ROWS; i++) {
                List<Object> v = expectedRow(i);
                Group row = groups.newGroup().append("id", (long) v.get(0)).append("small", (int) (long) v.get(1));
                if (v.get(2) != null) {
                    row.append("big", (long) v.get(2));
                }
                if (v.get(3) != null) {
                    row.append("ratio", (double) v.get(3));
                }
                if (v.get(4) != null) {
                    row.append("s", (String) v.get(4));
                }
                if (v.get(5) != null) {
                    row.append("d", (int) ((LocalDate) v.get(5)).toEpochDay());
                }
                writer.write(row);
            }
        }
        return file;
    }

    /**
     * A string column comes as an Arrow UTF-8 vector holding the file's bytes (no Java string made
     * by the scan), across dictionary pages, PLAIN pages after the dictionary overflowed, NULLs and
     * multi-byte characters; its values are DuckDB's reading of the same file.
     */
    @ParameterizedTest
    @EnumSource(WriterVersion.class)
    void stringsStayUtf8BytesAndMatchDuckDb(WriterVersion version) throws Exception {
        String file = write(version);
        try (ParquetFileReader footer = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file), HadoopConfiguration.shared()))) {
            ColumnChunkMetaData chunk = footer.getRowGroups().get(0).getColumns().get(4);
            assertThat(chunk.getPath().toDotString()).isEqualTo("s");
            if (version == WriterVersion.PARQUET_1_0) { // v2 pages fall back to DELTA_BYTE_ARRAY
                assertThat(chunk.getEncodings()).contains(Encoding.PLAIN); // the dictionary overflowed mid-chunk
                assertThat(chunk.getEncodings()).containsAnyOf(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
            }
        }
        Schema schema = reader.inferSchema(file);
        List<Object> actual = new ArrayList<>();
        for (ScanPartition partition : reader.partitions(file)) {
            try (io.sluice.kernels.BatchStream stream = reader.read(partition, schema, List.of("id", "s"), 777,
                    support.allocator)) {
                for (io.sluice.kernels.Batch next = stream.next(); next != null; next = stream.next()) {
                    try (io.sluice.kernels.Batch batch = next) {
                        assertThat(batch.arrowVector(0)).isInstanceOf(org.apache.arrow.vector.BigIntVector.class);
                        assertThat(batch.hasColumn(0)).isFalse(); // numbers as Arrow, not on the heap
                        assertThat(batch.arrowVector(1)).isInstanceOf(org.apache.arrow.vector.VarCharVector.class);
                        var strings = (org.apache.arrow.vector.VarCharVector) batch.arrowVector(1);
                        for (int r = 0; r < batch.rowCount(); r++) {
                            actual.add(strings.isNull(r) ? null
                                    : new String(strings.get(r), java.nio.charset.StandardCharsets.UTF_8));
                        }
                        assertThat(batch.hasColumn(1)).isFalse();
                    }
                }
            }
        }
        List<Object> expected = support.query("SELECT s FROM read_parquet('" + file + "') ORDER BY id").stream()
                .map(row -> row.get(0)).collect(Collectors.toList());
        assertThat(expected).hasSize(ROWS);
        assertThat(actual).isEqualTo(expected);
    }

    /**
     * One long dictionary entry among short ones: each batch's buffer is sized by the entries its
     * rows use, not by the dictionary's average (which asked for 2.4 GB per batch of 8192 rows and failed).
     */
    @org.junit.jupiter.api.Test
    void aLongDictionaryEntryDoesNotSizeEveryBatch() throws Exception {
        MessageType type = MessageTypeParser.parseMessageType("message t { required binary s (STRING); }");
        String file = dir.resolve("lopsided.parquet").toString();
        String big = "y".repeat(600_000);
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file))
                .withType(type).withConf(HadoopConfiguration.shared()).withWriterVersion(WriterVersion.PARQUET_1_0)
                .withDictionaryPageSize(4 << 20).build()) {
            for (int i = 0; i < ROWS; i++) {
                writer.write(groups.newGroup().append("s", i == 0 ? big : "x" + i % 3));
            }
        }
        Schema schema = reader.inferSchema(file);
        long chars = 0;
        int rows = 0;
        for (ScanPartition partition : reader.partitions(file)) {
            try (io.sluice.kernels.BatchStream stream = reader.read(partition, schema, List.of("s"), 8192, support.allocator)) {
                for (io.sluice.kernels.Batch next = stream.next(); next != null; next = stream.next()) {
                    try (io.sluice.kernels.Batch batch = next) {
                        var strings = (org.apache.arrow.vector.VarCharVector) batch.arrowVector(0);
                        assertThat(strings.getDataBuffer().capacity()).as("data buffer of a batch")
                                .isLessThanOrEqualTo(1L << 20);
                        for (int r = 0; r < batch.rowCount(); r++) {
                            chars += strings.get(r).length;
                        }
                        rows += batch.rowCount();
                    }
                }
            }
        }
        assertThat(rows).isEqualTo(ROWS);
        assertThat(chars).isEqualTo(big.length() + 2L * (ROWS - 1));
    }

    /**
     * A required (never NULL) dictionary column, the run the decoder writes word by word: entries of
     * 0 to 12 bytes (one byte, exactly 8, past 8, multi-byte characters) read as DuckDB reads them.
     */
    @org.junit.jupiter.api.Test
    void aDictionaryRunWithoutNullsMatchesDuckDb() throws Exception {
        MessageType type = MessageTypeParser.parseMessageType("message t { required int64 id; required binary s (STRING); }");
        String file = dir.resolve("required.parquet").toString();
        String[] entries = {"", "A", "N", "R", "TRUCK", "1-URGENT", "AUTOMOBILE", "é", "€€€", "deliver ok", "12345678", "1234567", "é€é€é"};
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file))
                .withType(type).withConf(HadoopConfiguration.shared()).withWriterVersion(WriterVersion.PARQUET_1_0)
                .withPageSize(4096).build()) {
            for (int i = 0; i < ROWS; i++) {
                writer.write(groups.newGroup().append("id", (long) i).append("s", entries[(i * 7 + i / 13) % entries.length]));
            }
        }
        Schema schema = reader.inferSchema(file);
        List<Object> actual = new ArrayList<>();
        for (ScanPartition partition : reader.partitions(file)) {
            try (io.sluice.kernels.BatchStream stream = reader.read(partition, schema, List.of("s"), 1000, support.allocator)) {
                for (io.sluice.kernels.Batch next = stream.next(); next != null; next = stream.next()) {
                    try (io.sluice.kernels.Batch batch = next) {
                        var strings = (org.apache.arrow.vector.VarCharVector) batch.arrowVector(0);
                        assertThat(strings.getNullCount()).isZero();
                        for (int r = 0; r < batch.rowCount(); r++) {
                            actual.add(new String(strings.get(r), java.nio.charset.StandardCharsets.UTF_8));
                        }
                    }
                }
            }
        }
        List<Object> expected = support.query("SELECT s FROM read_parquet('" + file + "') ORDER BY id").stream()
                .map(row -> row.get(0)).collect(Collectors.toList());
        assertThat(actual).hasSize(ROWS).isEqualTo(expected);
    }

    /**
     * Numbers come as the Arrow vectors of their types (v1 and v2 pages), read from dictionary and PLAIN
     * pages with NULLs: decimals stored as INT32 and INT64 become 16-byte decimals (negative values sign-extended
     * into the high word), dates day vectors, doubles float vectors; the values are DuckDB's reading
     * of the same file.
     */
    @ParameterizedTest
    @EnumSource(WriterVersion.class)
    void numbersComeAsArrowVectorsOfTheirTypes(WriterVersion version) throws Exception {
        MessageType type = MessageTypeParser.parseMessageType("""
                message t {
                  required int64 id;
                  optional int32 price (DECIMAL(9, 2));
                  optional int64 amount (DECIMAL(15, 3));
                  required int32 d (DATE);
                  optional double ratio;
                }""");
        String file = dir.resolve("numbers-" + version + ".parquet").toString();
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file))
                .withType(type).withConf(HadoopConfiguration.shared()).withWriterVersion(version)
                .withPageSize(4096).withDictionaryPageSize(4096).withPageRowCountLimit(700).build()) {
            for (int i = 0; i < ROWS; i++) {
                Group row = groups.newGroup().append("id", (long) i);
                if (i % 6 != 0) {
                    row.append("price", i % 40 * 25 - 500); // few values: dictionary pages
                }
                if (i % 4 != 1) {
                    row.append("amount", (i - ROWS / 2) * 1_000_003L); // many: PLAIN once the dictionary overflows
                }
                row.append("d", i % 3000);
                if (i % 5 != 2) {
                    row.append("ratio", i / 7.0 - 100);
                }
                writer.write(row);
            }
        }
        Schema schema = reader.inferSchema(file);
        List<String> columns = List.of("id", "price", "amount", "d", "ratio");
        List<List<Object>> expected = support.query("SELECT id, price, amount, d, ratio FROM read_parquet('" + file
                + "') ORDER BY id").stream()
                .map(row -> row.stream().map(SourceTestSupport::normalize).collect(Collectors.toList()))
                .collect(Collectors.toList());
        // The vectors as Arrow readers (IPC clients) see them: a decimal's whole 16-byte slot, not only its low word.
        List<Object> arrowDecimals = new ArrayList<>();
        for (ScanPartition partition : reader.partitions(file)) {
            try (io.sluice.kernels.BatchStream stream = reader.read(partition, schema, columns, 777, support.allocator)) {
                for (io.sluice.kernels.Batch next = stream.next(); next != null; next = stream.next()) {
                    try (io.sluice.kernels.Batch batch = next) {
                        assertThat(batch.arrowVector(1)).isInstanceOf(org.apache.arrow.vector.DecimalVector.class);
                        assertThat(batch.arrowVector(2)).isInstanceOf(org.apache.arrow.vector.DecimalVector.class);
                        assertThat(batch.arrowVector(3)).isInstanceOf(org.apache.arrow.vector.DateDayVector.class);
                        assertThat(batch.arrowVector(4)).isInstanceOf(org.apache.arrow.vector.Float8Vector.class);
                        for (int r = 0; r < batch.rowCount(); r++) {
                            for (int c = 1; c <= 2; c++) {
                                Object v = batch.arrowVector(c).getObject(r);
                                arrowDecimals.add(v == null ? null : SourceTestSupport.normalize(v));
                            }
                        }
                    }
                }
            }
        }
        List<Object> expectedDecimals = new ArrayList<>();
        for (List<Object> row : expected) {
            expectedDecimals.add(row.get(1));
            expectedDecimals.add(row.get(2));
        }
        assertThat(arrowDecimals).isEqualTo(expectedDecimals);
        List<List<Object>> actual = support.readAll(reader, file, schema, columns, 777);
        assertThat(actual).hasSize(ROWS);
        assertThat(actual).isEqualTo(expected);
        assertThat(((java.math.BigDecimal) actual.get(1).get(1)).signum()).isNegative(); // sign-extended
    }
}
