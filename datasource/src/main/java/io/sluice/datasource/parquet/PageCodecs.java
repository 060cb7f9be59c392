package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The codecs one open Parquet reader decompresses its pages with. Snappy pages (what DuckDB, Spark
 * and Sluice write by default) are decompressed by snappy-java from the column chunk's bytes
 * straight into the page's array: parquet-hadoop's own path copied them into a direct buffer it
 * allocated afresh for each reader, decompressed into another, and copied that into the page's
 * array through a stream. Every other codec goes through {@code delegate}, as before.
 */
final class PageCodecs implements CompressionCodecFactory {
    private final CompressionCodecFactory delegate;

    PageCodecs(CompressionCodecFactory delegate) {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return delegate.getCompressor(codec);
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return codec == CompressionCodecName.SNAPPY ? SnappyPages.INSTANCE : delegate.getDecompressor(codec);
    }

    @Override
    public void release() {
        delegate.release();
    }

    /**
     * Snappy pages into arrays of their own. Stateless, so one serves every reader. A page whose
     * Snappy header does not give the length the page header says is refused before anything is
     * written: snappy-java writes as many bytes as the Snappy header says.
     */
    enum SnappyPages implements BytesInputDecompressor {
        INSTANCE;

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            ByteBuffer in = bytes.toByteBuffer();
            byte[] compressed;
            int offset;
            int length = in.remaining();
            if (in.hasArray()) {
                compressed = in.array();
                offset = in.arrayOffset() + in.position();
            } else {
                compressed = new byte[length];
                in.duplicate().get(compressed);
                offset = 0;
            }
            checkLength(Snappy.uncompressedLength(compressed, offset, length), uncompressedSize);
            byte[] out = new byte[uncompressedSize];
            int written = Snappy.uncompress(compressed, offset, length, out, 0);
            checkLength(written, uncompressedSize);
            return BytesInput.from(out);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            ByteBuffer in = input.duplicate();
            in.limit(in.position() + compressedSize);
            byte[] page = decompress(BytesInput.from(in), uncompressedSize).toByteArray();
            output.put(page);
        }

        @Override
        public void release() {
        }

        private static void checkLength(int actual, int expected) throws IOException {
            if (actual != expected) {
                throw new IOException("a Snappy-compressed page holds " + actual + " bytes where its header says "
                        + expected);
            }
        }
    }
}
