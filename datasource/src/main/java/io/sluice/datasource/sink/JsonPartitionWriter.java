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
import io.sluice.kernels.Col;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes batches to one UTF-8 JSON lines file, as Spark writes JSON: one object per row, fields in
 * the schema's order, a NULL field left out; dates as {@code yyyy-mm-dd}, timestamps as ISO 8601
 * local date-times ({@code yyyy-mm-ddThh:mm:ss[.ffffff]}), decimals as plain numbers, NaN and the
 * infinities as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}; structs and
 * maps as objects, lists as arrays.
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
        Col[] columns = batch.columns();
        int rows = batch.rowCount();
        for (int r = 0; r < rows; r++) {
            out.writeStartObject();
            for (int i = 0; i < columns.length; i++) {
                Col c = columns[i];
                if (!c.isNull(r)) {
                    out.writeFieldName(names[i]);
                    writeValue(c, types[i], r);
                }
            }
            out.writeEndObject();
            out.writeRaw('\n');
        }
    }

    private void writeValue(Col c, DataType type, int r) throws IOException {
        switch (type.kind()) {
            case BOOL -> out.writeBoolean(c.bools[r]);
            case INT32, INT64 -> out.writeNumber(c.longs[r]);
            case FLOAT64 -> out.writeNumber(c.doubles[r]);
            case DECIMAL -> out.writeNumber(decimal(c, type, r));
            case UTF8 -> out.writeString(c.strings[r]);
            case DATE32 -> out.writeString(LocalDate.ofEpochDay(c.longs[r]).toString());
            case TIMESTAMP -> out.writeString(timestamp(TemporalValues.toLocalDateTime(c.longs[r])));
            case NULL -> out.writeNull();
            case STRUCT, LIST, MAP -> writeNested(type, c.objects[r]);
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

    private static BigDecimal decimal(Col c, DataType type, int r) {
        if (!c.isWide()) {
            return BigDecimal.valueOf(c.longs[r], type.scale());
        }
        BigInteger unscaled = BigInteger.valueOf(c.high(r)).shiftLeft(64)
                .or(BigInteger.valueOf(c.low(r)).and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)));
        return new BigDecimal(unscaled, type.scale());
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
