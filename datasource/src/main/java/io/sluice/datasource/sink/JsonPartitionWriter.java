package io.sluice.datasource.sink;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues;
import io.sluice.kernels.Batch;
import io.sluice.kernels.NestedValues;
import io.sluice.kernels.Utf8Bytes;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes batches to one UTF-8 JSON lines file, as Spark writes JSON: one object per row, fields in
 * the schema's order, a NULL field left out; dates as {@code yyyy-mm-dd}, timestamps as ISO 8601
 * local date-times ({@code yyyy-mm-ddThh:mm:ss[.ffffff]}), decimals as plain numbers, NaN and the
 * infinities as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}; structs and
 * maps as objects, lists as arrays. Values are read from the batch's Arrow vectors (strings as
 * their UTF-8 bytes, escaped by the generator without a {@code String} per value).
 */
final class JsonPartitionWriter implements PartitionFileWriter {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private final JsonGenerator out;
    private final String[] names;
    private final DataType[] types;

    JsonPartitionWriter(Schema schema, Path file, Configuration conf) throws IOException {
        this(schema, new BufferedOutputStream(file.getFileSystem(conf).create(file, false), 1 << 16), true);
    }

    /** Lines on {@code stream}, which closing this writer closes only with {@code closeStream}. */
    JsonPartitionWriter(Schema schema, OutputStream stream, boolean closeStream) throws IOException {
        this.out = FACTORY.createGenerator(stream, JsonEncoding.UTF8);
        out.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, closeStream);
        out.setRootValueSeparator(null); // each object ends its own line
        this.names = new String[schema.size()];
        this.types = new DataType[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            names[i] = schema.field(i).name();
            types[i] = schema.field(i).type();
        }
    }

    @Override
    public void write(Batch batch) throws IOException {
        List<FieldVector> vectors = batch.root().getFieldVectors();
        int rows = batch.rowCount();
        Utf8Bytes[] strings = new Utf8Bytes[types.length];
        Object[][] nested = new Object[types.length][];
        for (int i = 0; i < types.length; i++) {
            if (types[i].kind() == DataType.Kind.UTF8) {
                strings[i] = Utf8Bytes.of((VarCharVector) vectors.get(i));
            } else if (types[i].isNested()) {
                nested[i] = NestedValues.read(vectors.get(i), types[i]);
            }
        }
        for (int r = 0; r < rows; r++) {
            out.writeStartObject();
            for (int i = 0; i < types.length; i++) {
                FieldVector vector = vectors.get(i);
                if (!vector.isNull(r)) {
                    out.writeFieldName(names[i]);
                    switch (types[i].kind()) {
                        case UTF8 -> writeString(strings[i], r);
                        case STRUCT, LIST, MAP -> writeNested(types[i], nested[i][r]);
                        default -> writeValue(vector, types[i], r);
                    }
                }
            }
            out.writeEndObject();
            out.writeRaw('\n');
        }
    }

    /**
     * A string value: ASCII bytes as they are; others decoded first, so that bytes that are not
     * UTF-8 (a Parquet BYTE_ARRAY read as a string) become U+FFFD and the file stays valid JSON.
     */
    private void writeString(Utf8Bytes strings, int r) throws IOException {
        byte[] data = strings.data();
        int start = strings.start(r);
        int length = strings.end(r) - start;
        for (int b = start; b < start + length; b++) {
            if (data[b] < 0) {
                out.writeString(new String(data, start, length, java.nio.charset.StandardCharsets.UTF_8));
                return;
            }
        }
        out.writeUTF8String(data, start, length);
    }

    /** A flat value other than a string, read from its vector. */
    private void writeValue(FieldVector vector, DataType type, int r) throws IOException {
        switch (type.kind()) {
            case BOOL -> out.writeBoolean(((BitVector) vector).get(r) != 0);
            case INT32 -> out.writeNumber(((IntVector) vector).get(r));
            case INT64 -> out.writeNumber(((BigIntVector) vector).get(r));
            case FLOAT64 -> out.writeNumber(((Float8Vector) vector).get(r));
            case DECIMAL -> out.writeNumber(((DecimalVector) vector).getObject(r));
            case DATE32 -> out.writeString(LocalDate.ofEpochDay(((DateDayVector) vector).get(r)).toString());
            case TIMESTAMP -> out.writeString(timestamp(TemporalValues.toLocalDateTime(((TimeStampVector) vector).get(r))));
            default -> out.writeNull(); // NULL: every row is NULL and left out above
        }
    }

    /** A nested value in its Java form ({@code NestedValues}); NULL struct fields are left out, as at the top. */
    private void writeNested(DataType type, Object value) throws IOException {
        if (value == null) {
            out.writeNull();
            return;
        }
        switch (type.kind()) {
            case STRUCT -> {
                Map<?, ?> fields = (Map<?, ?>) value;
                out.writeStartObject();
                for (Field field : type.fields()) {
                    Object v = fields.get(field.name());
                    if (v != null) {
                        out.writeFieldName(field.name());
                        writeNested(field.type(), v);
                    }
                }
                out.writeEndObject();
            }
            case LIST -> {
                out.writeStartArray();
                for (Object element : (List<?>) value) {
                    writeNested(type.elementType(), element);
                }
                out.writeEndArray();
            }
            case MAP -> {
                out.writeStartObject();
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                    out.writeFieldName(String.valueOf(entry.getKey()));
                    writeNested(type.valueType(), entry.getValue());
                }
                out.writeEndObject();
            }
            case BOOL -> out.writeBoolean((Boolean) value);
            case INT32, INT64 -> out.writeNumber(((Number) value).longValue());
            case FLOAT64 -> out.writeNumber(((Number) value).doubleValue());
            case DECIMAL -> out.writeNumber((BigDecimal) value);
            case TIMESTAMP -> out.writeString(timestamp((LocalDateTime) value));
            default -> out.writeString(value.toString()); // VARCHAR, DATE (ISO)
        }
    }

    private static String timestamp(LocalDateTime value) {
        StringBuilder text = new StringBuilder(TemporalValues.formatTimestamp(value));
        text.setCharAt(text.indexOf(" "), 'T');
        return text.toString();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
