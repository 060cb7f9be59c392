package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.SourceTestSupport;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.source.FileFormat;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The page decoder on the types and encodings other writers use: parquet-mr's v2 pages
 * (DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY, RLE booleans, BYTE_STREAM_SPLIT) and its v1 dictionaries
 * of FLOAT, INT96 and byte-array decimals (128-bit ones too), and DuckDB's v1 and v2 files
 * (DELTA_LENGTH_BYTE_ARRAY among them): every column comes as an Arrow vector, never a heap column,
 * with the values DuckDB reads from the same file.
 */
class ParquetEncodingsTest {
    private static final int ROWS = 5_000;
    private static final MessageType TYPE = MessageTypeParser.parseMessageType("""
            message m {
              required int64 id;
              optional boolean flag;
              optional float f;
              optional double d;
              optional int32 i;
              optional int32 u (INTEGER(32, false));
              optional int64 ms (TIMESTAMP(MILLIS, false));
              optional int64 ns (TIMESTAMP(NANOS, false));
              optional int96 legacy;
              optional fixed_len_byte_array(5) fixed (DECIMAL(10, 2));
              optional binary bin (DECIMAL(18, 4));
              optional fixed_len_byte_array(16) wide (DECIMAL(38, 6));
              optional binary widebin (DECIMAL(30, 3));
              optional binary s (STRING);
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

    /** parquet-mr v2 pages without dictionaries (delta encodings, byte stream split), or v1 pages with dictionaries. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void parquetMrEncodingsMatchDuckDb(boolean v2) throws Exception {
        String file = dir.resolve("mr-" + v2 + ".parquet").toString();
        SimpleGroupFactory groups = new SimpleGroupFactory(TYPE);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file))
                .withType(TYPE).withConf(HadoopConfiguration.shared())
                .withWriterVersion(v2 ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
                .withDictionaryEncoding(!v2).withByteStreamSplitEncoding(v2)
                .withPageSize(2048).withPageRowCountLimit(600).build()) {
            for (int n = 0; n < ROWS; n++) {
                writer.write(row(groups, n));
            }
        }
        Set<Encoding> used = encodings(file);
        if (v2) {
            assertThat(used).contains(Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_BYTE_ARRAY, Encoding.BYTE_STREAM_SPLIT,
                    Encoding.RLE);
        } else {
            assertThat(used).containsAnyOf(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
        }
        assertMatchesDuckDb(file);
    }

    private static Group row(SimpleGroupFactory groups, int n) {
        Group g = groups.newGroup().append("id", (long) n);
        int few = n % 37; // repeating values: dictionaries in v1
        if (n % 5 != 1) {
            g.append("flag", n % 3 == 0);
        }
        if (n % 6 != 2) {
            g.append("f", few * 0.25f - 3);
        }
        if (n % 7 != 3) {
            g.append("d", n * 1.5 - 1000);
        }
        if (n % 4 != 0) {
            g.append("i", n % 2 == 0 ? -n * 40_001 : n * 13);
        }
        if (n % 8 != 5) {
            g.append("u", (int) (4_000_000_000L - few * 1_000_000L)); // above Integer.MAX_VALUE as unsigned
        }
        long micros = (n - ROWS / 2) * 86_400_123_000L + few;
        if (n % 9 != 4) {
            g.append("ms", Math.floorDiv(micros, 1000));
        }
        if (n % 10 != 6) {
            g.append("ns", micros * 1000);
        }
        if (n % 11 != 7) {
            long epochDay = Math.floorDiv(micros, 86_400_000_000L);
            long nanosOfDay = Math.floorMod(micros, 86_400_000_000L) * 1000;
            g.append("legacy", new NanoTime((int) (epochDay + 2_440_588L), nanosOfDay));
        }
        if (n % 12 != 8) {
            g.append("fixed", Binary.fromConstantByteArray(bigEndian((few - 18) * 123_456_789L, 5)));
        }
        if (n % 13 != 9) {
            long unscaled = (n % 2 == 0 ? -1 : 1) * (long) n * 9_876_543_210_123L;
            g.append("bin", Binary.fromConstantByteArray(java.math.BigInteger.valueOf(unscaled).toByteArray()));
        }
        if (n % 15 != 11) { // beyond a long: 128-bit values, negative ones too
            java.math.BigInteger unscaled = java.math.BigInteger.valueOf(n - ROWS / 2).multiply(
                    java.math.BigInteger.TEN.pow(30)).add(java.math.BigInteger.valueOf(few));
            g.append("wide", Binary.fromConstantByteArray(bigEndian(unscaled, 16)));
        }
        if (n % 16 != 12) {
            java.math.BigInteger unscaled = java.math.BigInteger.valueOf(few - 18).multiply(java.math.BigInteger.TEN.pow(25));
            g.append("widebin", Binary.fromConstantByteArray(unscaled.toByteArray()));
        }
        if (n % 14 != 10) {
            g.append("s", n % 3 == 0 ? "k" + few : "prefix-shared-é€-" + n);
        }
        return g;
    }

    private static byte[] bigEndian(java.math.BigInteger value, int length) {
        byte[] bytes = value.toByteArray();
        byte[] out = new byte[length];
        java.util.Arrays.fill(out, 0, length - bytes.length, (byte) (value.signum() < 0 ? -1 : 0));
        System.arraycopy(bytes, 0, out, length - bytes.length, bytes.length);
        return out;
    }

    private static byte[] bigEndian(long value, int length) {
        byte[] out = new byte[length];
        for (int i = length - 1; i >= 0; i--) {
            out[i] = (byte) value;
            value >>= 8;
        }
        return out;
    }

    /**
     * DuckDB's v1 and v2 files: its own choice of dictionaries, delta encodings and byte stream
     * split, 128-bit decimals among them, several row groups, read as DuckDB reads them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"V1", "V2"})
    void duckDbFilesMatchDuckDb(String version) throws Exception {
        String file = dir.resolve("duck-" + version + ".parquet").toString();
        support.execute("COPY (SELECT i AS id, i % 3 = 0 AS flag, CAST(i / 7 AS FLOAT) AS f, CAST(i * 1.25 - 10 AS DOUBLE) AS d, "
                + "CAST(i * 17 - 40000 AS INTEGER) AS i, CAST(i * 1000 AS UINTEGER) AS u, "
                + "TIMESTAMP '2020-01-01' + i * INTERVAL 1 MINUTE AS ts, CAST(i * 3.5 AS DECIMAL(12, 2)) AS dec, "
                + "CASE WHEN i % 10 = 0 THEN NULL ELSE 'value-' || (i * 7919 % 100003) END AS s, "
                + "CASE WHEN i % 4 = 0 THEN NULL ELSE i END AS maybe, "
                + "CASE WHEN i % 6 = 1 THEN NULL ELSE CAST(i - 2500 AS DECIMAL(38, 0)) * 1000000000000000000000 "
                + "+ i % 13 END AS wide, "
                + "CASE WHEN i % 9 = 2 THEN NULL ELSE CAST((i % 40 - 20) * 1234567.891 AS DECIMAL(24, 3)) END AS few_wide "
                + "FROM range(" + ROWS + ") t(i)) TO '" + file + "' (FORMAT parquet, PARQUET_VERSION " + version + ", "
                + "ROW_GROUP_SIZE 2000)");
        if (version.equals("V2")) {
            Set<Encoding> used = encodings(file);
            assertThat(used).contains(Encoding.DELTA_BINARY_PACKED);
            assertThat(used).containsAnyOf(Encoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.DELTA_BYTE_ARRAY);
        }
        assertMatchesDuckDb(file);
    }

    /** Every column of every batch an Arrow vector (no heap column), the rows equal to DuckDB's reading. */
    private void assertMatchesDuckDb(String file) throws Exception {
        Schema schema = reader.inferSchema(file);
        List<String> columns = schema.names();
        List<List<Object>> actual = new ArrayList<>();
        for (ScanPartition partition : reader.partitions(file)) {
            try (BatchStream stream = reader.read(partition, schema, columns, 333, support.allocator)) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    try (Batch batch = next) {
                        for (int c = 0; c < columns.size(); c++) {
                            assertThat(batch.hasColumn(c)).as("column " + columns.get(c) + " on the heap").isFalse();
                        }
                        for (int r = 0; r < batch.rowCount(); r++) {
                            List<Object> row = new ArrayList<>();
                            for (int c = 0; c < columns.size(); c++) {
                                row.add(SourceTestSupport.normalize(batch.column(c).get(r)));
                            }
                            actual.add(row);
                        }
                    }
                }
            }
        }
        List<List<Object>> expected = support.query("SELECT * FROM read_parquet('" + file + "') ORDER BY id");
        assertThat(actual).hasSize(ROWS);
        for (int r = 0; r < ROWS && !actual.equals(expected); r++) { // names the first differing row
            assertThat(actual.get(r)).as("row " + r + " of " + columns).isEqualTo(expected.get(r));
        }
    }

    private static Set<Encoding> encodings(String file) throws Exception {
        Set<Encoding> used = new HashSet<>();
        try (ParquetFileReader footer = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file), HadoopConfiguration.shared()))) {
            for (var rowGroup : footer.getRowGroups()) {
                for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                    used.addAll(chunk.getEncodings());
                }
            }
        }
        return used;
    }

    /** A column of the table that a file lacks (added after it was written) reads as NULLs in an Arrow vector. */
    @Test
    void aColumnTheFileLacksIsAnArrowVectorOfNulls() throws Exception {
        String file = dir.resolve("narrow.parquet").toString();
        support.execute("COPY (SELECT i AS id FROM range(10) t(i)) TO '" + file + "' (FORMAT parquet)");
        Schema table = new Schema(List.of(new io.sluice.common.types.Field("id", io.sluice.common.types.DataType.INT64),
                new io.sluice.common.types.Field("added", io.sluice.common.types.DataType.UTF8)));
        try (BatchStream stream = reader.read(reader.partitions(file).get(0), table, List.of("id", "added"), 100,
                support.allocator); Batch batch = stream.next()) {
            assertThat(batch.rowCount()).isEqualTo(10);
            assertThat(batch.hasColumn(1)).as("heap column").isFalse();
            assertThat(batch.arrowVector(1).getNullCount()).isEqualTo(10);
        }
    }

    /** Round trips of the delta decoder: values whose deltas need 0 to 64 bits, and wrapping sums. */
    @Test
    void deltaBinaryPackedDecodesWhatParquetMrEncodes() throws Exception {
        long[] values = new long[1000];
        for (int n = 0; n < values.length; n++) {
            values[n] = switch (n / 200) {
                case 0 -> 7;
                case 1 -> n * 3L;
                case 2 -> n % 2 == 0 ? Long.MAX_VALUE - n : Long.MIN_VALUE + n;
                case 3 -> -n * 1_000_000_007L;
                default -> (long) n * n * n;
            };
        }
        var writer = new org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong(128, 4, 64, 64 * 1024,
                org.apache.parquet.bytes.HeapByteBufferAllocator.getInstance());
        for (long v : values) {
            writer.writeLong(v);
        }
        ByteBuffer bytes = writer.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        int end = bytes.limit();
        assertThat(DeltaBinaryPackedDecoder.decode(bytes)).isEqualTo(values);
        assertThat(bytes.position()).isEqualTo(end);
    }

    /** A damaged page names the file, the column and the encoding problem, and the reader keeps nothing allocated. */
    @Test
    void aDamagedDeltaPageNamesTheFile() throws Exception {
        String file = dir.resolve("damaged.parquet").toString();
        MessageType type = MessageTypeParser.parseMessageType("message t { required int64 id; }");
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file))
                .withType(type).withConf(HadoopConfiguration.shared()).withWriterVersion(WriterVersion.PARQUET_2_0)
                .withDictionaryEncoding(false).withCompressionCodec(
                        org.apache.parquet.hadoop.metadata.CompressionCodecName.UNCOMPRESSED).build()) {
            for (int n = 0; n < ROWS; n++) {
                writer.write(groups.newGroup().append("id", (long) n * n));
            }
        }
        assertThat(encodings(file)).contains(Encoding.DELTA_BINARY_PACKED);
        long dataStart;
        try (ParquetFileReader footer = ParquetFileReader.open(
                HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file), HadoopConfiguration.shared()))) {
            dataStart = footer.getRowGroups().get(0).getColumns().get(0).getStartingPos();
        }
        Schema schema = reader.inferSchema(file);
        java.nio.file.Files.delete(dir.resolve(".damaged.parquet.crc")); // else Hadoop's checksum catches the damage first
        try (RandomAccessFile raw = new RandomAccessFile(file, "rw")) {
            // past the page header, into the values: bit widths above 64 and garbage deltas
            for (long at = dataStart + 40; at < dataStart + 60; at++) {
                raw.seek(at);
                raw.write(0xFF);
            }
        }
        assertThatThrownBy(() -> support.readAll(reader, file, schema, List.of("id"), 1000))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining(file)
                .hasMessageContaining("column 'id'");
        assertThat(support.allocator.getAllocatedMemory()).isZero();
    }
}
