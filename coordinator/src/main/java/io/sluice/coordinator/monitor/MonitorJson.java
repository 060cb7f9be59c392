package io.sluice.coordinator.monitor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;

/**
 * The Jackson mapper of the monitoring JSON: the REST answers and the event log's lines. A
 * reader ignores fields it does not know, so a newer coordinator's log stays readable.
 */
final class MonitorJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private MonitorJson() {
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** One event from its JSON line; a line that is not one is an {@link UncheckedIOException} with the parser's message. */
    static QueryEvent readEvent(String line) {
        try {
            return MAPPER.readValue(line, QueryEvent.class);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e.getOriginalMessage(), e);
        }
    }
}
