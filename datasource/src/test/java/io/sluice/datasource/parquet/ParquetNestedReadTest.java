package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.SourceTestSupport;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.logical.source.FileFormat;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nested Parquet columns as DuckDB and older (2-level list) writers make them. */
class ParquetNestedReadTest {
    private static final String ROWS = """
            SELECT i AS id,
                   CASE WHEN i % 5 = 4 THEN NULL ELSE {'a': i::INTEGER, 'b': 'x' || i, 'c': CASE WHEN i % 3 = 0 THEN NULL ELSE i * 1.5 END::DECIMAL(10,2)} END AS s,
                   CASE WHEN i % 7 = 6 THEN NULL ELSE list_transform(range(i % 4), x -> CASE WHEN x = 2 THEN NULL ELSE x * 10 END) END AS xs,
                   MAP(['k' || i, 'z'], [i, NULL::BIGINT]) AS m,
                   [{'p': i, 'q': [DATE '2020-01-01' + i::INTEGER]}] AS ls,
                   {'inner': {'deep': i::INTEGER}, 'tags': ['t' || i]} AS ss
            FROM range(0, 3000) t(i)
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

    private String writeDuckDb() throws Exception {
        String file = dir.resolve("nested.parquet").toString();
        support.execute("COPY (" + ROWS + ") TO '" + file + "' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)");
        return file;
    }

    @Test
    void infersNestedTypes() throws Exception {
        Schema schema = reader.inferSchema(writeDuckDb());
        assertThat(schema.field("s").type()).isEqualTo(DataType.struct(List.of(new Field("a", DataType.INT32),
                new Field("b", DataType.UTF8), new Field("c", DataType.decimal(10, 2)))));
        assertThat(schema.field("xs").type()).isEqualTo(DataType.list(DataType.INT64));
        assertThat(schema.field("m").type()).isEqualTo(DataType.map(DataType.UTF8, DataType.INT64));
        assertThat(schema.field("ls").type().sqlName()).isEqualTo("ARRAY<STRUCT<p: BIGINT, q: ARRAY<DATE>>>");
        assertThat(schema.field("ss").type().sqlName()).isEqualTo("STRUCT<inner: STRUCT<deep: INTEGER>, tags: ARRAY<VARCHAR>>");
    }

    @Test
    void flatColumnsOfAFileWithNestedOnesReadAlone() throws Exception {
        String file = writeDuckDb();
        Schema schema = reader.inferSchema(file);
        List<List<Object>> rows = support.readAll(reader, file, schema, List.of("id"), 512);
        assertThat(rows).hasSize(3000);
        assertThat(rows.get(2999)).containsExactly(2999L);
    }

    @Test
    void nestedColumnsReadAsTheirValues() throws Exception {
        String file = writeDuckDb();
        Schema schema = reader.inferSchema(file);
        List<List<Object>> rows = support.readAll(reader, file, schema, List.of("xs", "id", "s", "m", "ls", "ss"), 700);
        assertThat(rows).hasSize(3000);
        for (List<Object> row : rows) {
            long i = (Long) row.get(1);
            if (i % 7 == 6) {
                assertThat(row.get(0)).isNull();
            } else {
                Object[] xs = new Object[(int) (i % 4)];
                for (int x = 0; x < xs.length; x++) {
                    xs[x] = x == 2 ? null : x * 10L;
                }
                assertThat(row.get(0)).as("xs of %d", i).isEqualTo(Arrays.asList(xs));
            }
            if (i % 5 == 4) {
                assertThat(row.get(2)).isNull();
            } else {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("a", (int) i);
                s.put("b", "x" + i);
                s.put("c", i % 3 == 0 ? null : BigDecimal.valueOf(i * 15, 1).setScale(2));
                assertThat(row.get(2)).as("s of %d", i).isEqualTo(s);
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("k" + i, i);
            m.put("z", null);
            assertThat(row.get(3)).isEqualTo(m);
            assertThat(row.get(4)).isEqualTo(List.of(Map.of("p", i, "q", List.of(java.time.LocalDate.of(2020, 1, 1).plusDays(i)))));
            assertThat(row.get(5)).isEqualTo(Map.of("inner", Map.of("deep", (int) i), "tags", List.of("t" + i)));
        }
    }

    /** Older writers' 2-level lists (a repeated primitive, a repeated group named array) and bare repeated fields. */
    @Test
    void readsLegacyListShapes() throws Exception {
        MessageType type = MessageTypeParser.parseMessageType("""
                message m {
                  required int32 id;
                  optional group ints (LIST) { repeated int32 array; }
                  optional group pairs (LIST) { repeated group array { required int32 x; } }
                  optional group tuples (LIST) { repeated group tuples_tuple { required int32 x; optional binary y (STRING); } }
                  repeated int64 bare;
                  optional group kv (MAP_KEY_VALUE) { repeated group map { required binary key (UTF8); optional int32 value; } }
                }""");
        String file = dir.resolve("legacy.parquet").toString();
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file)).withType(type)
                .withConf(HadoopConfiguration.shared()).build()) {
            for (int i = 0; i < 3; i++) {
                Group row = groups.newGroup().append("id", i);
                if (i != 1) {
                    Group ints = row.addGroup("ints");
                    for (int k = 0; k < i; k++) {
                        ints.append("array", k);
                    }
                    row.addGroup("pairs").addGroup("array").append("x", i);
                    row.addGroup("tuples").addGroup("tuples_tuple").append("x", i).append("y", "y" + i);
                    row.addGroup("kv").addGroup("map").append("key", "k").append("value", i);
                }
                for (int k = 0; k < i; k++) {
                    row.append("bare", (long) k);
                }
                writer.write(row);
            }
        }
        Schema schema = reader.inferSchema(file);
        assertThat(schema.field("ints").type()).isEqualTo(DataType.list(DataType.INT32));
        assertThat(schema.field("pairs").type().sqlName()).isEqualTo("ARRAY<STRUCT<x: INTEGER>>");
        assertThat(schema.field("tuples").type().sqlName()).isEqualTo("ARRAY<STRUCT<x: INTEGER, y: VARCHAR>>");
        assertThat(schema.field("bare").type()).isEqualTo(DataType.list(DataType.INT64));
        assertThat(schema.field("kv").type()).isEqualTo(DataType.map(DataType.UTF8, DataType.INT32));
        List<List<Object>> rows = support.readAll(reader, file, schema, schema.names(), 2);
        assertThat(rows.get(0)).isEqualTo(Arrays.asList(0L, List.of(), List.of(Map.of("x", 0)),
                List.of(Map.of("x", 0, "y", "y0")), List.of(), Map.of("k", 0)));
        assertThat(rows.get(1)).isEqualTo(Arrays.asList(1L, null, null, null, List.of(0L), null));
        assertThat(rows.get(2)).isEqualTo(Arrays.asList(2L, List.of(0, 1), List.of(Map.of("x", 2)),
                List.of(Map.of("x", 2, "y", "y2")), List.of(0L, 1L), Map.of("k", 2)));
    }
}
