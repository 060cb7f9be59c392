package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;

/**
 * Reads what parquet-mr's RLE / bit-packing encoder writes, for every bit width: bit-packed runs
 * (read a word per value, the values near the buffer's end a byte at a time) and repeated runs,
 * in little-endian buffers and in buffers of the other order (read a byte at a time); values
 * skipped between reads leave the following reads right.
 */
class RleBitPackedDecoderTest {
    @Test
    void readsWhatParquetMrWritesAtEveryBitWidth() throws Exception {
        Random random = new Random(5);
        for (int width = 0; width <= 32; width++) {
            for (int count : new int[] {1, 7, 8, 9, 63, 64, 1000, 4099}) {
                int[] values = new int[count];
                long bound = 1L << width;
                for (int i = 0; i < count; i++) {
                    boolean repeat = i > 0 && random.nextInt(4) == 0; // runs long enough to be repeated runs too
                    values[i] = repeat ? values[i - 1] : (int) (width == 0 ? 0 : random.nextLong() & (bound - 1));
                }
                byte[] encoded;
                try (RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(width, 64, 1 << 20,
                        new HeapByteBufferAllocator())) {
                    for (int v : values) {
                        encoder.writeInt(v);
                    }
                    encoded = encoder.toBytes().toByteArray();
                }
                for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
                    RleBitPackedDecoder decoder = new RleBitPackedDecoder(ByteBuffer.wrap(encoded).order(order), width);
                    int[] out = new int[count];
                    int at = 0;
                    while (at < count) { // in uneven pieces, across runs
                        int take = Math.min(count - at, 1 + random.nextInt(100));
                        decoder.read(out, at, take);
                        at += take;
                    }
                    assertThat(out).as("width %d, %d values, %s", width, count, order).isEqualTo(values);
                    // skipping pieces (whole bit-packed runs stepped over) and reading the others
                    RleBitPackedDecoder skipping = new RleBitPackedDecoder(ByteBuffer.wrap(encoded).order(order), width);
                    int[] piece = new int[200];
                    for (at = 0; at < count; ) {
                        int take = Math.min(count - at, 1 + random.nextInt(random.nextBoolean() ? 10 : 200));
                        if (random.nextBoolean()) {
                            skipping.skip(take);
                        } else {
                            skipping.read(piece, 0, take);
                            assertThat(Arrays.copyOf(piece, take)).as("width %d, values from %d", width, at)
                                    .isEqualTo(Arrays.copyOfRange(values, at, at + take));
                        }
                        at += take;
                    }
                }
            }
        }
    }

    /** A repeated run is skipped only for its own value and only as far as it reaches; then reading goes on. */
    @Test
    void skipsWithinARepeatedRunOnly() throws Exception {
        byte[] encoded;
        try (RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(1, 64, 1 << 20,
                new HeapByteBufferAllocator())) {
            for (int i = 0; i < 100; i++) {
                encoder.writeInt(1);
            }
            for (int i = 0; i < 16; i++) {
                encoder.writeInt(i % 2);
            }
            encoded = encoder.toBytes().toByteArray();
        }
        RleBitPackedDecoder decoder = new RleBitPackedDecoder(ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN), 1);
        assertThat(decoder.skipRepeated(0, 10)).isFalse();
        assertThat(decoder.skipRepeated(1, 101)).isFalse();
        assertThat(decoder.skipRepeated(1, 60)).isTrue();
        int[] out = new int[56];
        decoder.read(out, 0, 56);
        for (int i = 0; i < 40; i++) {
            assertThat(out[i]).isEqualTo(1);
        }
        for (int i = 40; i < 56; i++) {
            assertThat(out[i]).as("value %d", i).isEqualTo((i - 40) % 2);
        }
        assertThat(decoder.skipRepeated(1, 1)).isFalse();
    }
}
