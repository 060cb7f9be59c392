package io.sluice.datasource.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.SourceFile;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;

/**
 * Infers a JSON lines table's schema from its first lines (up to a sample size, across files in
 * order), with Spark's rules ({@link JsonType}): each line is an object, the columns are the union of
 * the fields seen, sorted by name. In PERMISSIVE mode a malformed line in the sample adds the corrupt
 * record column (STRING) at the end, as Spark does; in DROPMALFORMED it is skipped; in FAILFAST it is
 * an error naming the file and line.
 */
final class JsonSchemaInference {
    /** Shared by every parser; Jackson factories are thread-safe once configured. */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private JsonSchemaInference() {
    }

    static Schema infer(List<SourceFile> files, JsonOptions options, int sampleRows) {
        Map<String, JsonType> fields = new TreeMap<>();
        boolean corrupt = false;
        int sampled = 0;
        for (int f = 0; f < files.size() && sampled < sampleRows; f++) {
            SourceFile file = files.get(f);
            try (JsonLines lines = JsonLines.open(new Path(file.path()), file.length(), file.modificationTime(), 0, -1)) {
                while (sampled < sampleRows && lines.next()) {
                    if (lines.isBlank()) {
                        continue;
                    }
                    sampled++;
                    try (JsonParser parser = FACTORY.createParser(lines.bytes(), 0, lines.length())) {
                        JsonToken first = parser.nextToken();
                        if (first != JsonToken.START_OBJECT) {
                            throw new JsonRowException("expected a JSON object, found " + JsonRowException.describe(parser));
                        }
                        Map<String, JsonType> row = objectFields(parser);
                        if (parser.nextToken() != null) {
                            throw new JsonRowException("unexpected text after the JSON object");
                        }
                        row.forEach((name, type) -> fields.merge(name, type, JsonType::merge));
                    } catch (JsonRowException | JsonProcessingException e) {
                        switch (options.mode()) {
                            case FAILFAST -> throw JsonRowException.malformedLine(lines, e);
                            case PERMISSIVE -> corrupt = true;
                            case DROPMALFORMED -> { }
                        }
                    } catch (IOException e) {
                        throw new SluiceException("cannot read JSON file " + lines.path() + ": " + e.getMessage(), e);
                    }
                }
            }
        }
        List<Field> columns = new ArrayList<>(fields.size() + 1);
        try {
            fields.forEach((name, type) -> columns.add(new Field(name, type.toDataType())));
        } catch (IllegalArgumentException e) { // an object with an empty key: no column can be named for it
            throw new SluiceException("cannot infer a schema from the JSON records at " + new Path(files.get(0).path()).getParent() + ": "
                    + e.getMessage() + " (an object has an empty key); declare the table's columns", e);
        }
        if (corrupt && !fields.containsKey(options.corruptRecordColumn())) {
            columns.add(new Field(options.corruptRecordColumn(), DataType.UTF8));
        }
        return new Schema(columns);
    }

    /** The type of the value at the parser's current token. */
    static JsonType typeOf(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        return switch (token) {
            case VALUE_NULL -> JsonType.NULL;
            case VALUE_TRUE, VALUE_FALSE -> JsonType.BOOL;
            case VALUE_STRING -> JsonType.STRING;
            case VALUE_NUMBER_INT -> parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? decimalOf(parser.getDecimalValue()) : JsonType.BIGINT;
            case VALUE_NUMBER_FLOAT -> JsonType.DOUBLE;
            case START_OBJECT -> new JsonType.Struct(objectFields(parser));
            case START_ARRAY -> {
                JsonType element = JsonType.NULL;
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    element = JsonType.merge(element, typeOf(parser));
                }
                yield new JsonType.Array(element);
            }
            default -> throw new JsonRowException("unexpected " + JsonRowException.describe(parser));
        };
    }

    /** The fields of the object whose START_OBJECT is the current token; a field seen twice merges its types. */
    private static Map<String, JsonType> objectFields(JsonParser parser) throws IOException {
        Map<String, JsonType> fields = new TreeMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            fields.merge(name, typeOf(parser), JsonType::merge);
        }
        return fields;
    }

    /** An integer past a long: a DECIMAL of its digits, or DOUBLE past 38 digits, as Spark infers it. */
    private static JsonType decimalOf(BigDecimal value) {
        int precision = value.precision();
        return precision > DataType.MAX_DECIMAL_PRECISION ? JsonType.DOUBLE
                : new JsonType.Scalar(DataType.decimal(precision, 0));
    }
}
