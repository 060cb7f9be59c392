package io.sluice.plan.exec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow's LZ4_FRAME body codec on lz4-java (native where available): the same standard LZ4 frame
 * format as arrow-compression's codec, which is built on commons-compress and about 20 times
 * slower. Buffers of 2 GiB or more cannot be compressed (Arrow's codecs share that limit).
 */
public final class Lz4FrameCodec extends AbstractCompressionCodec {
    @Override
    protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
        byte[] input = bytes(uncompressed, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream(input.length / 2 + 64);
        try (LZ4FrameOutputStream lz4 = new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB)) {
            lz4.write(input);
        } catch (IOException e) {
            throw new UncheckedIOException("LZ4 compression failed", e);
        }
        byte[] compressed = out.toByteArray();
        ArrowBuf result = allocator.buffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + compressed.length);
        result.setBytes(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH, compressed);
        result.writerIndex(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + compressed.length);
        return result;
    }

    @Override
    protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
        long length = readUncompressedLength(compressed);
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bad uncompressed length " + length + " in an LZ4 buffer");
        }
        byte[] input = bytes(compressed, CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH);
        byte[] output = new byte[(int) length];
        try (LZ4FrameInputStream lz4 = new LZ4FrameInputStream(new ByteArrayInputStream(input))) {
            int at = 0;
            while (at < output.length) {
                int n = lz4.read(output, at, output.length - at);
                if (n < 0) {
                    throw new IOException("LZ4 frame ended after " + at + " of " + length + " bytes");
                }
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("LZ4 decompression failed", e);
        }
        ArrowBuf result = allocator.buffer(length);
        result.setBytes(0, output);
        result.writerIndex(length);
        return result;
    }

    @Override
    public CompressionUtil.CodecType getCodecType() {
        return CompressionUtil.CodecType.LZ4_FRAME;
    }

    private static byte[] bytes(ArrowBuf buffer, long from) {
        long size = buffer.writerIndex() - from;
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("buffer of " + size + " bytes is too large to compress");
        }
        byte[] out = new byte[(int) size];
        buffer.getBytes(from, out);
        return out;
    }
}
