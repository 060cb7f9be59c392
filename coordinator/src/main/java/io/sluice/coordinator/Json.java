package io.sluice.coordinator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;

/**
 * The one Jackson mapper for the HTTP API's JSON answers (health, job lists), so that what the
 * coordinator writes and what a client reads back share one shape: the records' annotations. A
 * reader ignores fields it does not know, so a newer coordinator may add some.
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private Json() {
    }

    /** {@code value} as one line of JSON. */
    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** {@code json} read as a {@code type}; a document that does not fit is an {@link UncheckedIOException}. */
    static <T> T read(String json, TypeReference<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("not the JSON expected: " + e.getOriginalMessage(), e);
        }
    }
}
