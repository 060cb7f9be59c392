package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.OpenBytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The codecs one open Parquet reader decompresses its pages with. Snappy pages (what DuckDB, Spark
 * and Sluice write by default) are decompressed by snappy-java from the column chunk's bytes
 * straight into the scan's array of the column ({@link PageArrays}), reused from page to page and
 * row group to row group, when the page is read ({@link SnappyPage}): parquet-hadoop's own path
 * copied them into a direct buffer it allocated afresh for each reader, decompressed into another,
 * and copied that into a new array for each page through a stream. Every other codec goes through {@code delegate}, as before.
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
     * Snappy pages ({@link SnappyPage}), each decompressed when its bytes are first read, so a page
     * the decoder passes over (no selected row in it) is never decompressed, as with parquet-hadoop's
     * stream. Stateless, so one serves every reader.
     */
    enum SnappyPages implements BytesInputDecompressor {
        INSTANCE;

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) {
            return new SnappyPage(bytes, uncompressedSize);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            ByteBuffer in = input.duplicate();
            in.limit(in.position() + compressedSize);
            output.put(new SnappyPage(BytesInput.from(in), uncompressedSize).toByteArray());
        }

        @Override
        public void release() {
        }
    }

    /**
     * One Snappy page, decompressed when it is read: into an array of its own ({@link
     * #toByteArray}), or into the scan's reusable one ({@link #decompressInto}), with no copy
     * between. A page whose Snappy header does not give the length its page header says is refused
     * before anything is written: snappy-java writes as many bytes as the Snappy header says.
     */
    static final class SnappyPage extends OpenBytesInput {
        private final BytesInput compressed;
        private final int size;

        SnappyPage(BytesInput compressed, int size) {
            this.compressed = requireNonNull(compressed, "compressed is null");
            if (size < 0) {
                throw new IllegalArgumentException("negative page size " + size);
            }
            this.size = size;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public void writeAllTo(OutputStream out) throws IOException {
            out.write(toByteArray());
        }

        @Override
        public byte[] toByteArray() throws IOException {
            byte[] page = new byte[size];
            decompressInto(page);
            return page;
        }

        @Override
        public ByteBuffer toByteBuffer() throws IOException {
            return ByteBuffer.wrap(toByteArray());
        }

        @Override
        protected void writeTo(ByteBuffer buffer) {
            try {
                buffer.put(toByteArray());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Decompresses the page into the start of {@code out}, which holds at least {@link #size()} bytes. */
        void decompressInto(byte[] out) throws IOException {
            Objects.checkFromIndexSize(0, size, out.length);
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
            checkLength(Snappy.uncompress(input, from, length, out, 0), size);
        }

        private static void checkLength(int actual, int expected) throws IOException {
            if (actual != expected) {
                throw new IOException("a Snappy-compressed page holds " + actual + " bytes where its header says "
                        + expected);
            }
        }
    }
}
