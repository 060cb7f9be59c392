package io.sluice.shuffle;

import io.sluice.kernels.Lz4FrameCodec;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * Arrow IPC body compression of shuffle segments ({@code sluice.shuffle.compression}). The codec is
 * recorded in each record batch message, so a reader decodes any setting without being told.
 */
public enum ShuffleCompression {
    NONE(CompressionUtil.CodecType.NO_COMPRESSION),
    LZ4_FRAME(CompressionUtil.CodecType.LZ4_FRAME),
    ZSTD(CompressionUtil.CodecType.ZSTD);

    /**
     * The most bytes one shuffle buffer may declare uncompressed: a corrupt or hostile length is
     * refused before anything is allocated for it (the task's allocator bounds the rest).
     */
    static final long MAX_DECLARED_BYTES = 1L << 30;
    /** ZSTD's run-length blocks expand a few bytes to a 128 KiB block: the most it can expand to. */
    static final long ZSTD_MAX_RATIO = 1L << 15;

    /** Decodes any codec a writer may have used, each bounded ({@link #checkDeclaredLength}). */
    static final CompressionCodec.Factory DECODERS = new CompressionCodec.Factory() {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType codecType) {
            CompressionCodec codec = codecType == CompressionUtil.CodecType.LZ4_FRAME
                    ? new Lz4FrameCodec()
                    : CommonsCompressionFactory.INSTANCE.createCodec(codecType);
            return codecType == CompressionUtil.CodecType.NO_COMPRESSION ? codec : new BoundedDecoder(codec);
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType codecType, int compressionLevel) {
            return createCodec(codecType);
        }
    };

    private final CompressionUtil.CodecType type;

    /**
     * Checks the uncompressed length a compressed buffer declares (its first 8 bytes, as Arrow
     * writes them; -1 marks a buffer stored raw) against the hard cap and the codec's greatest
     * expansion of the buffer's real size.
     */
    static void checkDeclaredLength(ArrowBuf compressed, CompressionUtil.CodecType codec) {
        if (compressed.writerIndex() < CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH) {
            return;
        }
        long declared = compressed.getLong(0);
        if (declared == CompressionUtil.NO_COMPRESSION_LENGTH) {
            return;
        }
        long body = compressed.writerIndex() - CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        long ratio = codec == CompressionUtil.CodecType.ZSTD ? ZSTD_MAX_RATIO : Lz4FrameCodec.MAX_RATIO;
        if (declared < 0 || declared > MAX_DECLARED_BYTES || declared > body * ratio + 1024) {
            throw new IllegalArgumentException(codec + " buffer of " + body + " bytes declares " + declared
                    + " bytes uncompressed (at most " + ratio + " times its size and " + MAX_DECLARED_BYTES
                    + " bytes): corrupt");
        }
    }

    /** A decoder that refuses a declared length out of bounds before its codec allocates it. */
    private record BoundedDecoder(CompressionCodec codec) implements CompressionCodec {
        @Override
        public ArrowBuf compress(BufferAllocator allocator, ArrowBuf uncompressed) {
            return codec.compress(allocator, uncompressed);
        }

        @Override
        public ArrowBuf decompress(BufferAllocator allocator, ArrowBuf compressed) {
            checkDeclaredLength(compressed, codec.getCodecType());
            return codec.decompress(allocator, compressed);
        }

        @Override
        public CompressionUtil.CodecType getCodecType() {
            return codec.getCodecType();
        }
    }

    ShuffleCompression(CompressionUtil.CodecType type) {
        this.type = type;
    }

    /** A fresh codec (ZSTD and LZ4 codecs are not shared between threads). */
    CompressionCodec newCodec() {
        return switch (this) {
            case NONE -> NoCompressionCodec.INSTANCE;
            case LZ4_FRAME -> new Lz4FrameCodec();
            case ZSTD -> CommonsCompressionFactory.INSTANCE.createCodec(type);
        };
    }
}
