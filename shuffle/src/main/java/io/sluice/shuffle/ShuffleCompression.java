package io.sluice.shuffle;

import io.sluice.kernels.Lz4FrameCodec;
import org.apache.arrow.compression.CommonsCompressionFactory;
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

    /** Decodes any codec a writer may have used. */
    static final CompressionCodec.Factory DECODERS = new CompressionCodec.Factory() {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType codecType) {
            return codecType == CompressionUtil.CodecType.LZ4_FRAME
                    ? new Lz4FrameCodec()
                    : CommonsCompressionFactory.INSTANCE.createCodec(codecType);
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType codecType, int compressionLevel) {
            return createCodec(codecType);
        }
    };

    private final CompressionUtil.CodecType type;

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
