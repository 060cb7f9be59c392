package io.sluice.datasource.json;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.TemporalValues;
import io.sluice.datasource.file.Utf8Encoding;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Decodes the JSON values of one column straight into an Arrow vector, one row at a time, from the
 * parser's current token: no value object per row. Conversions are Spark's: a number into BIGINT,
 * INTEGER (in range), DOUBLE or DECIMAL (rounded half up to the scale, within the precision); a
 * string into DATE ({@code yyyy-mm-dd}) or TIMESTAMP (ISO 8601, a zone offset converted to UTC);
 * "NaN" and "Infinity" strings into DOUBLE; any value into STRING (objects and arrays as their JSON
 * text); an object into a STRUCT (fields by name, as columns are matched) or a MAP with VARCHAR
 * keys; an array into a LIST. A value that does not convert is a {@link JsonRowException}. A row is written at most once
 * (a field repeated in one object keeps its first value); {@link #finishRow} makes a column the
 * object lacked NULL.
 */
final class JsonColumn {
    private final String name;
    private final DataType type;
    private final DataType.Kind kind;
    private FieldVector vector;
    private BitVector bits;
    private IntVector ints;
    private BigIntVector longs;
    private Float8Vector doubles;
    private DecimalVector decimals;
    private DateDayVector dates;
    private TimeStampMicroVector timestamps;
    private VarCharVector strings;
    private StructVector struct;
    private ListVector list; // a LIST's or a MAP's vector (a MapVector is a ListVector of entries)
    private StructVector entries; // a MAP's entries
    private VarCharVector keys; // a MAP's keys
    /** A STRUCT's fields, a LIST's element, a MAP's value. */
    private final JsonColumn[] children;
    /** A STRUCT's field positions by name. */
    private final Map<String, Integer> childOfName;
    /** The last row written; a row not written by the end of its line is NULL. */
    private int written = -1;
    private byte[] utf8 = new byte[256];
    private ByteArrayBuilder raw;

    JsonColumn(Field field) {
        requireNonNull(field, "field is null");
        this.name = field.name();
        this.type = field.type();
        this.kind = type.kind();
        List<Field> parts = switch (kind) {
            case STRUCT -> type.fields();
            case LIST -> type.children();
            case MAP -> {
                if (type.keyType().kind() != DataType.Kind.UTF8) {
                    throw new SluiceException("column '" + name + "': a JSON object reads into a MAP with VARCHAR keys, not "
                            + type.sqlName());
                }
                yield List.of(type.children().get(1));
            }
            default -> List.of();
        };
        this.children = new JsonColumn[parts.size()];
        this.childOfName = kind == DataType.Kind.STRUCT ? new HashMap<>() : Map.of();
        for (int i = 0; i < children.length; i++) {
            children[i] = new JsonColumn(parts.get(i));
            if (kind == DataType.Kind.STRUCT) {
                childOfName.put(parts.get(i).name(), i);
            }
        }
    }

    String name() {
        return name;
    }

    DataType type() {
        return type;
    }

    /** Starts a new vector of up to {@code capacity} rows (it grows past that if needed); the previous one was handed over. */
    void start(BufferAllocator allocator, int capacity) {
        FieldVector created = new Field(name, type).toArrow().createVector(allocator);
        created.setInitialCapacity(capacity);
        created.allocateNew();
        bind(created);
    }

    /** Writes into {@code target} (this column's own vector, or a child of its parent's) from its start. */
    private void bind(FieldVector target) {
        vector = target;
        bits = vector instanceof BitVector v ? v : null;
        ints = vector instanceof IntVector v ? v : null;
        longs = vector instanceof BigIntVector v ? v : null;
        doubles = vector instanceof Float8Vector v ? v : null;
        decimals = vector instanceof DecimalVector v ? v : null;
        dates = vector instanceof DateDayVector v ? v : null;
        timestamps = vector instanceof TimeStampMicroVector v ? v : null;
        strings = vector instanceof VarCharVector v ? v : null;
        struct = vector instanceof StructVector v ? v : null;
        list = vector instanceof ListVector v ? v : null;
        written = -1;
        switch (kind) {
            case STRUCT -> {
                for (JsonColumn child : children) {
                    child.bind(struct.getChild(child.name));
                }
            }
            case LIST -> children[0].bind(list.getDataVector());
            case MAP -> {
                entries = (StructVector) list.getDataVector();
                keys = (VarCharVector) entries.getChild(DataType.KEY);
                children[0].bind(entries.getChild(DataType.VALUE));
            }
            default -> { }
        }
    }

    /** The vector of the rows so far, now owned by the caller. */
    FieldVector finish(int rows) {
        vector.setValueCount(rows);
        FieldVector out = vector;
        vector = null;
        return out;
    }

    /** Releases a vector not handed over (the stream failed or closed mid-batch). */
    void release() {
        if (vector != null) {
            vector.close();
            vector = null;
        }
    }

    /** True when {@code row} already has a value (the object repeats the field). */
    boolean hasValue(int row) {
        return written == row;
    }

    /** Writes the value at the parser's current token into {@code row}, or throws {@link JsonRowException}. */
    void write(JsonParser parser, int row) throws IOException {
        JsonToken token = parser.currentToken();
        written = row;
        if (token == JsonToken.VALUE_NULL) {
            nullAt(row);
            return;
        }
        switch (kind) {
            case STRUCT -> writeStruct(parser, token, row);
            case LIST -> writeList(parser, token, row);
            case MAP -> writeMap(parser, token, row);
            case UTF8 -> writeString(parser, token, row);
            case INT64 -> longs.setSafe(row, integer(parser, token, Long.MIN_VALUE, Long.MAX_VALUE));
            case INT32 -> ints.setSafe(row, (int) integer(parser, token, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case FLOAT64 -> doubles.setSafe(row, floating(parser, token));
            case BOOL -> {
                if (token != JsonToken.VALUE_TRUE && token != JsonToken.VALUE_FALSE) {
                    throw mismatch(parser);
                }
                bits.setSafe(row, token == JsonToken.VALUE_TRUE ? 1 : 0);
            }
            case DECIMAL -> decimals.setSafe(row, decimal(parser, token));
            case DATE32 -> dates.setSafe(row, (int) date(parser, token));
            case TIMESTAMP -> timestamps.setSafe(row, timestamp(parser, token));
            case NULL -> {
                parser.skipChildren();
                vector.setNull(row);
            }
        }
    }

    private void writeStruct(JsonParser parser, JsonToken token, int row) throws IOException {
        if (token != JsonToken.START_OBJECT) {
            throw mismatch(parser);
        }
        struct.setIndexDefined(row);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            JsonColumn child = child(parser.currentName());
            parser.nextToken();
            if (child == null || child.hasValue(row)) {
                parser.skipChildren();
            } else {
                child.write(parser, row);
            }
        }
        for (JsonColumn child : children) {
            child.finishRow(row);
        }
    }

    private JsonColumn child(String field) {
        Integer at = childOfName.get(field);
        if (at == null) {
            int i = type.fieldIndex(field);
            return i < 0 ? null : children[i];
        }
        return children[at];
    }

    private void writeList(JsonParser parser, JsonToken token, int row) throws IOException {
        if (token != JsonToken.START_ARRAY) {
            throw mismatch(parser);
        }
        int start = list.startNewValue(row);
        int n = 0;
        JsonColumn element = children[0];
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            element.write(parser, start + n);
            n++;
        }
        list.endValue(row, n);
    }

    private void writeMap(JsonParser parser, JsonToken token, int row) throws IOException {
        if (token != JsonToken.START_OBJECT) {
            throw mismatch(parser);
        }
        int start = list.startNewValue(row);
        int n = 0;
        JsonColumn value = children[0];
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            int at = start + n;
            entries.setIndexDefined(at);
            String key = parser.currentName();
            keys.setSafe(at, key.getBytes(StandardCharsets.UTF_8));
            parser.nextToken();
            value.write(parser, at);
            n++;
        }
        list.endValue(row, n);
    }

    /** NULL at {@code row}; a list or map gets an empty range of its elements, a struct NULL fields. */
    private void nullAt(int row) {
        switch (kind) {
            case LIST, MAP -> {
                list.startNewValue(row);
                list.endValue(row, 0);
                BitVectorHelper.unsetBit(list.getValidityBuffer(), row);
            }
            case STRUCT -> {
                struct.setNull(row);
                for (JsonColumn child : children) {
                    child.nullAt(row);
                    child.written = row;
                }
            }
            default -> vector.setNull(row);
        }
    }

    /** Makes {@code row} NULL unless the line wrote it. */
    void finishRow(int row) {
        if (written != row) {
            nullAt(row);
            written = row;
        }
    }

    /** Forgets what a dropped line wrote: its row is written again by the next line. */
    void discardRow() {
        written = -1;
        for (JsonColumn child : children) {
            child.discardRow();
        }
    }

    /** Makes {@code row} NULL (a value that did not fit, in PERMISSIVE mode); the parser skips the value. */
    void writeNull(int row) {
        nullAt(row);
        written = row;
    }

    private void writeString(JsonParser parser, JsonToken token, int row) throws IOException {
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            if (raw == null) {
                raw = new ByteArrayBuilder();
            }
            raw.reset();
            try (JsonGenerator generator = JsonSchemaInference.FACTORY.createGenerator(raw)) {
                generator.copyCurrentStructure(parser);
            }
            strings.setSafe(row, raw.toByteArray());
            return;
        }
        char[] chars = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        int length = parser.getTextLength();
        int bytes = encodeUtf8(chars, offset, length);
        strings.setSafe(row, utf8, 0, bytes);
    }

    /** UTF-8 of {@code chars[offset, offset + length)} into {@link #utf8}; returns the byte count. */
    private int encodeUtf8(char[] chars, int offset, int length) {
        if (utf8.length < length * Utf8Encoding.MAX_BYTES_PER_CHAR) {
            utf8 = new byte[Math.max(utf8.length * 2, length * Utf8Encoding.MAX_BYTES_PER_CHAR)];
        }
        return Utf8Encoding.encode(chars, offset, offset + length, utf8, 0);
    }

    private long integer(JsonParser parser, JsonToken token, long min, long max) throws IOException {
        if (token != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw mismatch(parser);
        }
        long value = parser.getLongValue();
        if (value < min || value > max) {
            throw mismatch(parser);
        }
        return value;
    }

    private double floating(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            return parser.getDoubleValue();
        }
        if (token == JsonToken.VALUE_STRING) {
            switch (parser.getText()) {
                case "NaN":
                    return Double.NaN;
                case "Infinity", "+Infinity", "+INF", "Inf", "+Inf":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity", "-INF", "-Inf":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        throw mismatch(parser);
    }

    private BigDecimal decimal(JsonParser parser, JsonToken token) throws IOException {
        BigDecimal value;
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            value = parser.getDecimalValue();
        } else if (token == JsonToken.VALUE_STRING) {
            try {
                value = new BigDecimal(parser.getText().strip());
            } catch (NumberFormatException e) {
                throw mismatch(parser);
            }
        } else {
            throw mismatch(parser);
        }
        BigDecimal scaled = value.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.precision() > type.precision()) {
            throw mismatch(parser);
        }
        return scaled;
    }

    private long date(JsonParser parser, JsonToken token) throws IOException {
        if (token != JsonToken.VALUE_STRING) {
            throw mismatch(parser);
        }
        try {
            return TemporalValues.parseDate(parser.getText());
        } catch (DateTimeParseException | ArithmeticException e) {
            throw mismatch(parser);
        }
    }

    private long timestamp(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            // seconds since the epoch, as Spark reads a number into a timestamp
            try {
                return Math.multiplyExact(parser.getLongValue(), TemporalValues.MICROS_PER_SECOND);
            } catch (ArithmeticException e) {
                throw mismatch(parser);
            }
        }
        if (token != JsonToken.VALUE_STRING) {
            throw mismatch(parser);
        }
        String text = parser.getText().strip();
        try {
            return TemporalValues.parseTimestamp(text);
        } catch (DateTimeParseException | ArithmeticException e) {
            try {
                OffsetDateTime zoned = OffsetDateTime.parse(text.replace(' ', 'T'));
                return TemporalValues.of(zoned.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
            } catch (DateTimeParseException | ArithmeticException notZoned) {
                throw mismatch(parser);
            }
        }
    }

    private JsonRowException mismatch(JsonParser parser) {
        return new JsonRowException("column '" + name + "': cannot read " + JsonRowException.describe(parser) + " as "
                + type.sqlName());
    }
}
