package io.sluice.datasource.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/** The JSON writer's strings: bytes copied as they are, and bytes that are not UTF-8 made valid JSON. */
class JsonPartitionWriterTest {
    @Test
    void stringBytesThatAreNotUtf8BecomeReplacementCharactersNotABrokenFile() throws Exception {
        Schema schema = Schema.of(new Field("s", DataType.UTF8));
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator(); VarCharVector strings = new VarCharVector("s", allocator)) {
            strings.allocateNew();
            strings.setSafe(0, "plain \"quoted\"".getBytes(StandardCharsets.UTF_8));
            strings.setSafe(1, "naïve".getBytes(StandardCharsets.UTF_8));
            strings.setSafe(2, new byte[] {'a', (byte) 0xff, 'b'});
            strings.setNull(3);
            strings.setValueCount(4);
            try (Batch batch = Batch.ofVectors(schema, new FieldVector[] {strings}, 4);
                    JsonPartitionWriter writer = new JsonPartitionWriter(schema, file, false)) {
                writer.write(batch);
            }
        }
        byte[] written = file.toByteArray();
        // strict decoding: a malformed byte would throw here
        String text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(written)).toString();
        assertThat(text.lines().toList()).containsExactly(
                "{\"s\":\"plain \\\"quoted\\\"\"}",
                "{\"s\":\"naïve\"}",
                "{\"s\":\"a\uFFFDb\"}",
                "{}");
    }
}
