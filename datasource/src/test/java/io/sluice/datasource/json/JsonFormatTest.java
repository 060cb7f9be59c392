package io.sluice.datasource.json;

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
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON lines reader on files DuckDB writes and on hand-written lines: inference, values, splits, modes, errors. */
class JsonFormatTest {
    private static final String TABLE = """
            CREATE TABLE t AS
            SELECT i AS id,
                   CASE WHEN i % 7 = 0 THEN NULL ELSE i * 3 - 1000 END AS n,
                   CASE WHEN i % 11 = 0 THEN NULL ELSE i / 7.0 END::DOUBLE AS f,
                   CASE WHEN i % 19 = 0 THEN NULL ELSE i % 2 = 0 END AS b,
                   CASE WHEN i % 3 = 0 THEN NULL
                        WHEN i % 3 = 1 THEN 'a, "quoted" ' || i
                        WHEN i % 10 = 2 THEN 'two' || chr(10) || 'lines ' || i
                        WHEN i % 10 = 5 THEN ''
                        ELSE 'é€😀' || i END AS s,
                   CASE WHEN i < 1200 THEN NULL ELSE 'late ' || i END AS late
            FROM range(0, 3000) t(i)
            ORDER BY i
            """;

    @TempDir
    Path dir;
    private SourceTestSupport support;
    private final FormatReader reader = FileFormats.reader(FileFormat.JSON);

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
        String file = dir.resolve("t.json").toString();
        support.execute("COPY t TO '" + file + "' (FORMAT JSON)");
        return file;
    }

    private String write(String name, String... lines) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file.toString();
    }

    @Test
    void infersDuckDbWrittenColumnsSortedByName() throws Exception {
        String file = writeTable();
        assertThat(reader.inferSchema(file)).isEqualTo(Schema.of(
                new Field("b", DataType.BOOL),
                new Field("f", DataType.FLOAT64),
                new Field("id", DataType.INT64),
                new Field("late", DataType.UTF8),
                new Field("n", DataType.INT64),
                new Field("s", DataType.UTF8)));
    }

    @Test
    void readsEveryValueAsDuckDbDoes() throws Exception {
        String file = writeTable();
        Schema schema = reader.inferSchema(file);
        List<String> columns = List.of("id", "n", "f", "b", "s", "late");
        List<List<Object>> actual = support.readAll(reader, file, schema, columns, 8192);
        assertThat(actual).hasSize(3000);
        assertThat(actual).isEqualTo(support.query("SELECT id, n, f, b, s, late FROM t ORDER BY id"));
        assertThat(actual.get(2).get(4)).isEqualTo("two\nlines 2");
        assertThat(actual.get(8).get(4)).isEqualTo("é€😀8");
        assertThat(actual.get(5).get(4)).isEqualTo("");
    }

    @Test
    void infersWithSparksRules() throws Exception {
        String file = write("rules.json",
                "{\"z\": 1, \"widened\": 1, \"conflict\": 1, \"nulls\": null, \"flag\": true, \"big\": 1}",
                "",
                "{\"widened\": 2.5, \"conflict\": \"x\", \"nulls\": null, \"big\": 123456789012345678901, \"obj\": {\"k\": 1}}",
                "{\"arr\": [1, 2], \"A\": \"upper\", \"conflict\": {\"k\": 2}}");
        assertThat(reader.inferSchema(file)).isEqualTo(Schema.of(
                new Field("A", DataType.UTF8),
                new Field("arr", DataType.list(DataType.INT64)),
                new Field("big", DataType.decimal(21, 0)),
                new Field("conflict", DataType.UTF8),
                new Field("flag", DataType.BOOL),
                new Field("nulls", DataType.UTF8),
                new Field("obj", DataType.struct(List.of(new Field("k", DataType.INT64)))),
                new Field("widened", DataType.FLOAT64),
                new Field("z", DataType.INT64)));
        Schema schema = reader.inferSchema(file);
        List<List<Object>> rows = support.readAll(reader, file, schema, List.of("conflict", "big", "widened", "arr"), 10);
        assertThat(rows).containsExactly(
                Arrays.asList("1", new BigDecimal("1"), 1.0, null),
                Arrays.asList("x", new BigDecimal("123456789012345678901"), 2.5, null),
                Arrays.asList("{\"k\":2}", null, null, List.of(1L, 2L)));
    }

    @Test
    void readsDuckDbWrittenNestedObjectsAndArraysAsDuckDbDoes() throws Exception {
        support.execute("""
                CREATE TABLE nested AS
                SELECT i AS id,
                       CASE WHEN i % 5 = 0 THEN NULL
                            ELSE {'city': 'c' || (i % 3), 'zip': i % 17, 'geo': {'lat': i / 4, 'tags': ['a' || i, NULL]}} END AS info,
                       CASE WHEN i % 4 = 0 THEN NULL WHEN i % 4 = 1 THEN [] ELSE [i, i + 1, NULL] END AS nums,
                       [{'sku': 's' || (i % 10), 'qty': i % 3}, {'sku': 'x', 'qty': NULL}] AS items,
                       CASE WHEN i % 2 = 0 THEN MAP {'k' || (i % 3): i} ELSE NULL END AS m
                FROM range(0, 500) t(i)
                """);
        String file = dir.resolve("nested.json").toString();
        support.execute("COPY nested TO '" + file + "' (FORMAT JSON)");
        Schema schema = reader.inferSchema(file);
        DataType geo = DataType.struct(List.of(new Field("lat", DataType.FLOAT64),
                new Field("tags", DataType.list(DataType.UTF8))));
        assertThat(schema.field("info").type()).isEqualTo(DataType.struct(List.of(new Field("city", DataType.UTF8),
                new Field("geo", geo), new Field("zip", DataType.INT64))));
        assertThat(schema.field("nums").type()).isEqualTo(DataType.list(DataType.INT64));
        assertThat(schema.field("items").type()).isEqualTo(DataType.list(DataType.struct(List.of(
                new Field("qty", DataType.INT64), new Field("sku", DataType.UTF8)))));
        // keys that differ from row to row make a struct of them all, as Spark infers
        assertThat(schema.field("m").type().kind()).isEqualTo(DataType.Kind.STRUCT);

        List<String> columns = List.of("id", "info", "nums", "items", "m");
        List<List<Object>> actual = support.readAll(reader, file, schema, columns, 64);
        List<List<Object>> expected = support.query(
                "SELECT id, to_json(info)::VARCHAR, to_json(nums)::VARCHAR, to_json(items)::VARCHAR, to_json(m)::VARCHAR"
                        + " FROM nested ORDER BY id");
        assertThat(actual).hasSize(500);
        for (int r = 0; r < actual.size(); r++) {
            for (int c = 1; c < columns.size(); c++) {
                Object want = expected.get(r).get(c) == null ? null : MAPPER.readValue((String) expected.get(r).get(c), Object.class);
                assertThat(comparable(actual.get(r).get(c))).as("row %s column %s", r, columns.get(c)).isEqualTo(comparable(want));
            }
        }

        Schema asMap = Schema.of(new Field("m", DataType.map(DataType.UTF8, DataType.INT64)));
        List<List<Object>> maps = support.readAll(reader, file, asMap, List.of("m"), 100);
        assertThat(maps.get(2).get(0)).isEqualTo(Map.of("k2", 2L));
        assertThat(maps.get(1).get(0)).isNull();
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();

    /** Nested values compared by content: integers as Long, objects without their NULL fields. */
    private static Object comparable(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new java.util.TreeMap<>();
            map.forEach((k, v) -> {
                if (v != null) {
                    out.put(k, comparable(v));
                }
            });
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(JsonFormatTest::comparable).collect(java.util.stream.Collectors.toList());
        }
        if (value instanceof Integer i) {
            return i.longValue();
        }
        return value;
    }

    @Test
    void anEmptyKeyIsAnErrorNamingWhereNotAStackTrace() throws Exception {
        String file = write("empty-key.json", "{\"\": 1, \"a\": 2}");
        assertThatThrownBy(() -> reader.inferSchema(file)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("cannot infer a schema from the JSON records at ")
                .hasMessageContaining("an object has an empty key");
    }

    @Test
    void mergesTypesAsSparkDoes() {
        assertThat(JsonType.merge(JsonType.BIGINT, JsonType.DOUBLE)).isEqualTo(JsonType.DOUBLE);
        assertThat(JsonType.merge(JsonType.NULL, JsonType.BOOL)).isEqualTo(JsonType.BOOL);
        assertThat(JsonType.merge(JsonType.BOOL, JsonType.BIGINT)).isEqualTo(JsonType.STRING);
        assertThat(JsonType.merge(JsonType.BIGINT, new JsonType.Scalar(DataType.decimal(21, 0))))
                .isEqualTo(new JsonType.Scalar(DataType.decimal(21, 0)));
        assertThat(JsonType.merge(new JsonType.Scalar(DataType.decimal(38, 0)), new JsonType.Scalar(DataType.decimal(5, 2))))
                .isEqualTo(JsonType.DOUBLE);
        JsonType a = new JsonType.Struct(Map.of("x", JsonType.BIGINT));
        JsonType b = new JsonType.Struct(Map.of("x", JsonType.DOUBLE, "y", JsonType.NULL));
        assertThat(JsonType.merge(a, b)).isEqualTo(new JsonType.Struct(Map.of("x", JsonType.DOUBLE, "y", JsonType.NULL)));
        assertThat(JsonType.merge(new JsonType.Array(JsonType.NULL), new JsonType.Array(JsonType.BIGINT)))
                .isEqualTo(new JsonType.Array(JsonType.BIGINT));
        assertThat(JsonType.merge(a, new JsonType.Array(JsonType.BIGINT))).isEqualTo(JsonType.STRING);
    }

    @Test
    void readsAGivenSchemaConvertingValuesAsSparkDoes() throws Exception {
        String file = write("given.json",
                "{\"i\": 7, \"d\": \"2024-02-29\", \"ts\": \"2024-02-29T10:11:12.5Z\", \"m\": 12.345, \"x\": \"NaN\"}",
                "{\"i\": -1, \"d\": null, \"ts\": \"2024-03-01 01:02:03\", \"m\": \"-0.5\", \"x\": 3}",
                "{\"ts\": \"2024-03-01T01:02:03+02:00\", \"ignored\": [1, {\"a\": 2}]}");
        Schema schema = Schema.of(new Field("i", DataType.INT32), new Field("d", DataType.DATE32),
                new Field("ts", DataType.TIMESTAMP), new Field("m", DataType.decimal(5, 2)), new Field("x", DataType.FLOAT64));
        List<List<Object>> rows = support.readAll(reader, file, schema, schema.names(), 2);
        assertThat(rows).containsExactly(
                Arrays.asList(7L, LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 2, 29, 10, 11, 12, 500_000_000),
                        new BigDecimal("12.35"), Double.NaN),
                Arrays.asList(-1L, null, LocalDateTime.of(2024, 3, 1, 1, 2, 3), new BigDecimal("-0.5"), 3.0),
                Arrays.asList(null, null, LocalDateTime.of(2024, 2, 29, 23, 2, 3), null, null));
    }

    @Test
    void splitsALargeFileAtLineBoundariesReadingEachLineOnce() throws Exception {
        String file = writeTable();
        Schema schema = reader.inferSchema(file);
        FormatReader split = new JsonFormat(4000);
        List<ScanPartition> partitions = split.partitions(file);
        assertThat(partitions).hasSizeGreaterThan(20).allSatisfy(p -> assertThat(p.isRange()).isTrue());
        List<List<Object>> rows = support.readAll(split, file, schema, List.of("id", "s"), 100);
        assertThat(rows).isEqualTo(support.query("SELECT id, s FROM t ORDER BY id"));
    }

    @Test
    void readsACompressedFileWholeAndWindowsLineEnds() throws Exception {
        Path file = dir.resolve("c.json.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file))) {
            out.write("{\"a\": 1, \"s\": \"x\"}\r\n\r\n{\"a\": 2}\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        FormatReader split = new JsonFormat(4);
        assertThat(split.partitions(file.toString())).singleElement().satisfies(p -> assertThat(p.isRange()).isFalse());
        Schema schema = split.inferSchema(file.toString());
        assertThat(schema).isEqualTo(Schema.of(new Field("a", DataType.INT64), new Field("s", DataType.UTF8)));
        assertThat(support.readAll(split, file.toString(), schema, List.of("s", "a"), 10))
                .containsExactly(List.of("x", 1L), Arrays.asList(null, 2L));
    }

    @Test
    void failFastNamesTheFileAndLineAlsoInALaterSplit() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            lines.add(i == 400 ? "{\"id\": 400, \"s\": oops}" : "{\"id\": " + i + ", \"s\": \"v" + i + "\"}");
        }
        String file = write("bad.json", lines.toArray(String[]::new));
        Schema schema = Schema.of(new Field("id", DataType.INT64), new Field("s", DataType.UTF8));
        for (FormatReader r : List.of(reader, new JsonFormat(1000))) {
            assertThatThrownBy(() -> support.readAll(r, file, schema, schema.names(), 64))
                    .isInstanceOf(SluiceException.class)
                    .hasMessageStartingWith("file:" + file + ": line 401: malformed JSON record: Unrecognized token 'oops'");
        }
        assertThatThrownBy(() -> reader.inferSchema(file)).isInstanceOf(SluiceException.class)
                .hasMessageContaining(file + ": line 401: malformed JSON record");
    }

    @Test
    void aValueThatDoesNotFitItsColumnNamesFileLineAndColumn() throws Exception {
        String file = write("mismatch.json", "{\"id\": 1}", "{\"id\": \"abc\"}");
        Schema schema = Schema.of(new Field("id", DataType.INT64));
        assertThatThrownBy(() -> support.readAll(reader, file, schema, schema.names(), 64))
                .isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("file:" + file + ": line 2, column 'id': cannot read 'abc' as BIGINT");
        String tooBig = write("int.json", "{\"i\": 3000000000}");
        Schema ints = Schema.of(new Field("i", DataType.INT32));
        assertThatThrownBy(() -> support.readAll(reader, tooBig, ints, ints.names(), 64))
                .hasMessageStartingWith("file:" + tooBig + ": line 1, column 'i': cannot read '3000000000' as INTEGER");
    }

    @Test
    void permissiveKeepsTheLineInTheCorruptRecordColumn() throws Exception {
        String file = write("modes.json", "{\"id\": 1, \"s\": \"a\"}", "not json", "{\"id\": \"x\", \"s\": \"b\"}", "[1]",
                "{\"id\": 4}");
        Map<String, String> permissive = FormatOptions.normalize(Map.of("MODE", "permissive"));
        reader.checkOptions(permissive);
        Schema schema = reader.inferSchema(file, permissive);
        assertThat(schema).isEqualTo(Schema.of(new Field("id", DataType.UTF8), new Field("s", DataType.UTF8),
                new Field("_corrupt_record", DataType.UTF8)));
        Schema typed = Schema.of(new Field("id", DataType.INT64), new Field("s", DataType.UTF8),
                new Field("_corrupt_record", DataType.UTF8));
        assertThat(readAll(file, typed, typed.names(), permissive)).containsExactly(
                Arrays.asList(1L, "a", null),
                Arrays.asList(null, null, "not json"),
                Arrays.asList(null, "b", "{\"id\": \"x\", \"s\": \"b\"}"),
                Arrays.asList(null, null, "[1]"),
                Arrays.asList(4L, null, null));
        assertThat(readAll(file, typed, List.of("s", "id"), permissive)).hasSize(5);

        Map<String, String> dropping = Map.of("mode", "DROPMALFORMED");
        assertThat(reader.inferSchema(file, dropping))
                .isEqualTo(Schema.of(new Field("id", DataType.UTF8), new Field("s", DataType.UTF8)));
        assertThat(readAll(file, typed, List.of("id", "s"), dropping)).containsExactly(
                Arrays.asList(1L, "a"), Arrays.asList(4L, null));
        assertThatThrownBy(() -> reader.checkOptions(Map.of("mode", "lenient")))
                .hasMessage("unknown JSON mode 'lenient'; expected PERMISSIVE, DROPMALFORMED or FAILFAST");
        assertThatThrownBy(() -> reader.checkOptions(Map.of("header", "true")))
                .hasMessage("unknown JSON option 'header'; known JSON options: mode, columnNameOfCorruptRecord");
    }

    private List<List<Object>> readAll(String file, Schema schema, List<String> columns, Map<String, String> options) {
        List<List<Object>> rows = new ArrayList<>();
        for (ScanPartition partition : reader.partitions(file, options)) {
            try (BatchStream stream = reader.read(partition, schema, columns, 2, support.allocator, options)) {
                for (Batch batch = stream.next(); batch != null; batch = stream.next()) {
                    try (Batch b = batch) {
                        for (int r = 0; r < b.rowCount(); r++) {
                            List<Object> row = new ArrayList<>();
                            for (int c = 0; c < columns.size(); c++) {
                                row.add(SourceTestSupport.normalize(b.column(c).get(r)));
                            }
                            rows.add(row);
                        }
                    }
                }
            }
        }
        return rows;
    }

    @Test
    void missingAndEmptyInputsAreNamed() throws Exception {
        String missing = dir.resolve("nope.json").toString();
        assertThatThrownBy(() -> reader.inferSchema(missing)).isInstanceOf(SluiceException.class)
                .hasMessage("file not found: " + missing);
        String empty = write("empty.json", "");
        assertThatThrownBy(() -> reader.inferSchema(empty))
                .hasMessage(empty + ": no JSON records to infer a schema from; declare the table's columns");
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
}
