package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/**
 * Strings gathered from several chunks are the chunks' strings, byte for byte, whatever their
 * length's remainder past a multiple of eight (the tail copied in pieces), NULLs kept.
 */
class ArrowChunkGatherTest {
    private static VarCharVector strings(BufferAllocator allocator, String name, List<String> values) {
        VarCharVector vector = new VarCharVector(name, allocator);
        vector.allocateNew();
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                vector.setNull(i);
            } else {
                vector.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
            }
        }
        vector.setValueCount(values.size());
        return vector;
    }

    @Test
    void stringsOfEveryTailLengthAreGatheredByteForByte() {
        String alphabet = "abcdefghijklmnopqrstuvwxyzäöü0123456789";
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        for (int length = 0; length <= 25; length++) {
            first.add(alphabet.substring(0, length));
            second.add(length % 5 == 4 ? null : alphabet.substring(alphabet.length() - length));
        }
        try (BufferAllocator allocator = new RootAllocator();
                VarCharVector a = strings(allocator, "s", first);
                VarCharVector b = strings(allocator, "s", second)) {
            int count = first.size() + second.size();
            int[] chunkOf = new int[count];
            int[] rowOf = new int[count];
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                // alternate the chunks, the second read backwards, so that no value follows its neighbour
                chunkOf[i] = i % 2;
                rowOf[i] = i % 2 == 0 ? i / 2 : second.size() - 1 - i / 2;
                expected.add((i % 2 == 0 ? first : second).get(rowOf[i]));
            }
            ArrowChunkGather.Chunks chunks = new ArrowChunkGather.Chunks(new FieldVector[] {a, b});
            try (VarCharVector out = (VarCharVector) chunks.gather(chunkOf, rowOf, count, allocator)) {
                assertThat(out.getValueCount()).isEqualTo(count);
                for (int i = 0; i < count; i++) {
                    String value = out.isNull(i) ? null : new String(out.get(i), StandardCharsets.UTF_8);
                    assertThat(value).as("row %d", i).isEqualTo(expected.get(i));
                }
            }
        }
    }
}
