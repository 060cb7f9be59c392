package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The codecs one open Parquet reader decompresses its pages with. Snappy pages (what DuckDB, Spark
 * and Sluice write by default) are decompressed by snappy-java from the column chunk's bytes
 * straight into the page's array when the page is read: parquet-hadoop's own path copied them into
 * a direct buffer it allocated afresh for each reader, decompressed into another, and copied that
 * into the page's array through a stream. Every other codec goes through {@code delegate}, as before.
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
     * Snappy pages, each decompressed when its bytes are first read, so a page the decoder passes
     * over (no selected row in it) is never decompressed, as with parquet-hadoop's stream. A whole
     * page read at once (as {@code BytesInput.toByteArray} reads it) is decompressed into the
     * reader's array, with no copy between. Stateless, so one serves every reader. A page whose
     * Snappy header does not give the length the page header says is refused before anything is
     * written: snappy-java writes as many bytes as the Snappy header says.
     */
    enum SnappyPages implements BytesInputDecompressor {
        INSTANCE;

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) {
            return BytesInput.from(new PageStream(bytes, uncompressedSize), uncompressedSize);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            ByteBuffer in = input.duplicate();
            in.limit(in.position() + compressedSize);
            output.put(decompress(BytesInput.from(in), uncompressedSize).toByteArray());
        }

        @Override
        public void release() {
        }
    }

    /** One Snappy page's bytes, decompressed at the first read. */
    static final class PageStream extends InputStream {
        private final BytesInput compressed;
        private final int size;
        private byte[] page; // when the first read took less than the whole page
        private int position;

        PageStream(BytesInput compressed, int size) {
            this.compressed = compressed;
            this.size = size;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (position >= size) {
                return len == 0 ? 0 : -1;
            }
            if (position == 0 && page == null && len >= size) {
                uncompressInto(b, off);
                position = size;
                return size;
            }
            if (page == null) {
                page = new byte[size];
                uncompressInto(page, 0);
            }
            int n = Math.min(len, size - position);
            System.arraycopy(page, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int available() {
            return size - position;
        }

        private void uncompressInto(byte[] out, int offset) throws IOException {
            ByteBuffer in = compressed.toByteBuffer();
            byte[] input;
            int from;
            int length = in.remaining();
            if (in.hasArray()) {
                input = in.array();
                from = in.arrayOffset() + in.position();
            } else {
                input = new byte[length];
                in.duplicate().get(input);
                from = 0;
            }
            checkLength(Snappy.uncompressedLength(input, from, length), size);
            checkLength(Snappy.uncompress(input, from, length, out, offset), size);
        }

        private static void checkLength(int actual, int expected) throws IOException {
            if (actual != expected) {
                throw new IOException("a Snappy-compressed page holds " + actual + " bytes where its header says "
                        + expected);
            }
        }
    }
}
