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
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CSV reader under each option, and the options refused with what is wrong named. */
class CsvOptionsReadTest {
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

    private String write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file.toString();
    }

    private List<List<Object>> readAll(String file, Map<String, String> options, int batchSize) {
        Schema schema = reader.inferSchema(file, options);
        return support.readAll(reader, file, schema, schema.names(), batchSize, options);
    }

    private List<List<Object>> readAll(String file, Schema schema, Map<String, String> options, int batchSize) {
        return support.readAll(reader, file, schema, schema.names(), batchSize, options);
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void tabsWithoutHeaderInferTypesAndNameColumnsAsSpark() throws Exception {
        String file = write("t.tsv", "1\tx y\t2024-02-29\n2\t\t2024-03-01\n");
        Map<String, String> options = Map.of("delimiter", "\\t", "header", "false");
        assertThat(reader.inferSchema(file, options)).isEqualTo(Schema.of(new Field("_c0", DataType.INT64),
                new Field("_c1", DataType.UTF8), new Field("_c2", DataType.DATE32)));
        assertThat(readAll(file, options, 1)).containsExactly(row(1L, "x y", LocalDate.of(2024, 2, 29)),
                row(2L, null, LocalDate.of(2024, 3, 1)));
        assertThat(reader.inferSchema(file, Map.of("sep", "\t", "header", "false", "inferSchema", "false")).fields())
                .extracting(Field::type).containsOnly(DataType.UTF8);
    }

    @Test
    void nullTextIsNullOnlyUnquoted() throws Exception {
        String file = write("n.csv", "a;b\nNA;\"NA\"\n1;NA\n;x\n");
        Map<String, String> options = Map.of("SEP", ";", "nullValue", "NA");
        assertThat(readAll(file, options, 2)).containsExactly(row(null, "NA"), row(1L, null), row(null, "x"));
    }

    @Test
    void quoteAndEscapeCharactersAreOptions() throws Exception {
        String file = write("q.csv", "a|b\n'it\\'s|fine'|'back\\\\slash'\nplain|'a\\b'\n");
        Map<String, String> options = Map.of("delimiter", "|", "quote", "'", "escape", "\\");
        assertThat(readAll(file, options, 10)).containsExactly(row("it's|fine", "back\\slash"), row("plain", "a\\b"));
        String notEscaped = write("n.csv", "a\n'x''y'\n");
        assertThatThrownBy(() -> readAll(notEscaped, options, 10)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("n.csv: line 2: unexpected character ''' after closing quote in field 1");
        String doubled = write("d.csv", "a\n'x''y'\n");
        assertThat(readAll(doubled, Map.of("quote", "'"), 10)).containsExactly(row("x'y"));
    }

    @Test
    void dateAndTimestampFormatsFollowSparkPatterns() throws Exception {
        String file = write("d.csv", "d,t\n29/02/2024,2024/03/01 13:45\n01/12/1999,1999/12/31 23:59\n");
        Map<String, String> options = Map.of("dateFormat", "dd/MM/yyyy", "timestampFormat", "yyyy/MM/dd HH:mm");
        Schema schema = Schema.of(new Field("d", DataType.DATE32), new Field("t", DataType.TIMESTAMP));
        assertThat(reader.inferSchema(file, options).field("d").type()).isEqualTo(DataType.DATE32);
        assertThat(readAll(file, schema, options, 10)).containsExactly(
                row(LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 3, 1, 13, 45)),
                row(LocalDate.of(1999, 12, 1), LocalDateTime.of(1999, 12, 31, 23, 59)));
        String invalid = write("bad.csv", "d,t\n30/02/2023,2024/03/01 13:45\n");
        assertThatThrownBy(() -> readAll(invalid, schema, options, 10)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("bad.csv: line 2, column 'd': cannot parse '30/02/2023' as date32");
    }

    @Test
    void modesDecideWhatABadRowBecomes() throws Exception {
        String file = write("m.csv", "a,b,c\n1,2,x\n3,y,4\n5\n6,7,8,9\n10,11,12\n");
        Schema schema = Schema.of(new Field("a", DataType.INT64), new Field("b", DataType.INT64),
                new Field("c", DataType.UTF8));
        assertThat(readAll(file, schema, Map.of("mode", "permissive"), 2)).containsExactly(row(1L, 2L, "x"),
                row(3L, null, "4"), row(5L, null, null), row(6L, 7L, "8"), row(10L, 11L, "12"));
        assertThat(readAll(file, schema, Map.of("mode", "dropMalformed"), 1)).containsExactly(row(1L, 2L, "x"),
                row(10L, 11L, "12"));
        assertThatThrownBy(() -> readAll(file, schema, Map.of(), 10)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("m.csv: line 3, column 'b': cannot parse 'y' as int64");
        Schema numbers = Schema.of(new Field("a", DataType.INT64), new Field("b", DataType.INT64),
                new Field("c", DataType.INT64));
        // the bad value in the last column comes after the row's first two were appended: both are taken back
        assertThat(readAll(file, numbers, Map.of("mode", "DROPMALFORMED"), 3)).containsExactly(row(10L, 11L, 12L));
    }

    @Test
    void aDeclaredSchemaNamesTheColumnsOverTheHeader() throws Exception {
        String file = write("h.csv", "x,y\n1,2\n");
        TableSource declared = FileFormats.register("h", FileFormat.CSV, file, Map.of(),
                Schema.of(new Field("a", DataType.INT32), new Field("b", DataType.UTF8)));
        assertThat(declared.options()).containsEntry("enforceschema", "true");
        assertThat(readAll(file, declared.schema(), declared.options(), 10)).containsExactly(row(1L, "2"));
        Schema other = Schema.of(new Field("a", DataType.INT64), new Field("b", DataType.INT64));
        assertThatThrownBy(() -> readAll(file, other, Map.of(), 10)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("h.csv: line 1: header [x, y] does not match the table's columns [a, b]");
    }

    @Test
    void badOptionsAreRefusedBeforeAnyFileIsRead() {
        assertThatThrownBy(() -> CsvOptions.of(Map.of("delimiter", ";", "sep", ",")))
                .hasMessage("CSV options: give either 'delimiter' or 'sep', not both");
        assertThatThrownBy(() -> CsvOptions.of(Map.of("mode", "lenient")))
                .hasMessage("CSV option mode must be PERMISSIVE, DROPMALFORMED or FAILFAST, not 'lenient'");
        assertThatThrownBy(() -> CsvOptions.of(Map.of("header", "yes")))
                .hasMessage("CSV option header must be true or false, not 'yes'");
        assertThatThrownBy(() -> CsvOptions.of(Map.of("dateFormat", "dd/MM/yyyy{")))
                .hasMessageStartingWith("CSV option dateFormat: 'dd/MM/yyyy{' is not a date/time pattern");
        assertThatThrownBy(() -> CsvOptions.of(Map.of("quote", ",")))
                .hasMessageContaining("the delimiter and the quote must be different characters");
        assertThatThrownBy(() -> CsvOptions.of(Map.of("charset", "ISO-8859-1")))
                .hasMessageContaining("CSV option charset 'ISO-8859-1' is not supported");
        assertThat(CsvOptions.of(Map.of("Encoding", "utf-8", "Header", "FALSE")).header()).isFalse();
        assertThatThrownBy(() -> CsvOptions.of(Map.of("Header", "true", "header", "true")))
                .hasMessage("option 'header' is given twice");
        assertThatThrownBy(() -> CsvOptions.of(Map.of("comment", "#"))).hasMessage("unknown CSV option 'comment'; known"
                + " CSV options: header, delimiter, sep, quote, escape, nullValue, dateFormat, timestampFormat,"
                + " inferSchema, enforceSchema, mode, encoding, charset");
    }
}
