package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.junit.jupiter.api.Test;

/** The lz4-java codec writes and reads the same LZ4 frames as Arrow's own (commons-compress) codec. */
class Lz4FrameCodecTest {
    @Test
    void interoperatesWithArrowsCodecBothWays() {
        try (RootAllocator allocator = new RootAllocator()) {
            byte[] data = ("a repetitive shuffle payload " + "x".repeat(1000) + " 12345 ").repeat(400)
                    .getBytes(StandardCharsets.UTF_8);
            CompressionCodec ours = new Lz4FrameCodec();
            CompressionCodec arrows = CommonsCompressionFactory.INSTANCE.createCodec(CompressionUtil.CodecType.LZ4_FRAME);
            assertThat(roundTrip(allocator, data, ours, arrows)).isEqualTo(data);
            assertThat(roundTrip(allocator, data, arrows, ours)).isEqualTo(data);
            assertThat(roundTrip(allocator, data, ours, ours)).isEqualTo(data);
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    /**
     * Blocks that do not compress are stored raw (the frame's uncompressed bit), in frames of
     * several blocks and of one short block; both codecs read them.
     */
    @Test
    void incompressibleAndShortBuffersRoundTrip() {
        try (RootAllocator allocator = new RootAllocator()) {
            byte[] noise = new byte[200_000];
            new java.util.Random(7).nextBytes(noise);
            byte[] mixed = new byte[300_000];
            System.arraycopy(noise, 0, mixed, 100_000, 200_000); // 64 KiB blocks: zeros, then noise
            CompressionCodec ours = new Lz4FrameCodec();
            CompressionCodec arrows = CommonsCompressionFactory.INSTANCE.createCodec(CompressionUtil.CodecType.LZ4_FRAME);
            for (byte[] data : new byte[][] {noise, mixed, "short".getBytes(StandardCharsets.UTF_8), new byte[BLOCK]}) {
                for (CompressionCodec reader : new CompressionCodec[] {ours, arrows}) {
                    ArrowBuf plain = allocator.buffer(data.length);
                    plain.setBytes(0, data);
                    plain.writerIndex(data.length);
                    ArrowBuf compressed = ours.compress(allocator, plain);
                    try (ArrowBuf restored = reader.decompress(allocator, compressed)) {
                        byte[] out = new byte[(int) restored.writerIndex()];
                        restored.getBytes(0, out);
                        assertThat(out).isEqualTo(data);
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    /**
     * A compressed buffer asks for what its own blocks can take, not a whole block's bound: a
     * validity bitmap of a few bytes stays a few bytes (it asked 128 KiB per buffer before), and a
     * buffer of several blocks still round-trips.
     */
    @Test
    void aSmallBufferAsksForLittleMemory() {
        try (RootAllocator allocator = new RootAllocator()) {
            CompressionCodec ours = new Lz4FrameCodec();
            for (int size : new int[] {1, 64, 1000, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 17}) {
                byte[] data = new byte[size];
                new java.util.Random(size).nextBytes(data); // incompressible: the largest output
                ArrowBuf plain = allocator.buffer(size);
                plain.setBytes(0, data);
                plain.writerIndex(size);
                ArrowBuf compressed = ours.compress(allocator, plain);
                assertThat(compressed.capacity()).as("size %d", size).isLessThan(2L * size + 1024);
                try (ArrowBuf restored = ours.decompress(allocator, compressed)) { // closes the compressed buffer
                    byte[] out = new byte[(int) restored.writerIndex()];
                    restored.getBytes(0, out);
                    assertThat(out).isEqualTo(data);
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static final int BLOCK = 64 * 1024;

    private static byte[] roundTrip(RootAllocator allocator, byte[] data, CompressionCodec writer,
            CompressionCodec reader) {
        ArrowBuf plain = allocator.buffer(data.length);
        plain.setBytes(0, data);
        plain.writerIndex(data.length);
        // compress() takes ownership of its input; decompress() of its.
        ArrowBuf compressed = writer.compress(allocator, plain);
        assertThat(compressed.writerIndex()).isLessThan(data.length / 4);
        try (ArrowBuf restored = reader.decompress(allocator, compressed)) {
            byte[] out = new byte[(int) restored.writerIndex()];
            restored.getBytes(0, out);
            return out;
        }
    }
}
