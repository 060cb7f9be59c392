package io.sluice.kernels;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow's LZ4_FRAME body codec on lz4-java (native where available): the same standard LZ4 frame
 * format as arrow-compression's codec, which is built on commons-compress and about 20 times
 * slower. Buffers of 2 GiB or more cannot be compressed (Arrow's codecs share that limit).
 *
 * <p>The frame is written and read here, block by block, straight between Arrow buffers with
 * lz4-java's block codec: the frame streams cost a header object, a bit set and two 64 KiB arrays
 * per buffer, which for the many small buffers of a shuffle (validity bitmaps, partitions of a
 * few thousand rows) was most of the codec's time. Written frames have independent 64 KiB blocks
 * and no checksums (FLG 0x60, BD 0x40, as lz4-java's stream writes them by default); frames
 * with any other descriptor (other writers' checksums, content sizes, linked blocks) are read
 * through {@link LZ4FrameInputStream}.
 */
public final class Lz4FrameCodec extends AbstractCompressionCodec {
    private static final int MAGIC = 0x184D2204;
    private static final int BLOCK = 64 * 1024;
    private static final byte FLG = 0x60; // version 01, independent blocks, no checksums, no content size
    private static final byte BD = 0x40; // 64 KiB maximum block size
    private static final byte HC = headerChecksum();
    private static final int UNCOMPRESSED_BIT = 0x80000000;
    /**
     * LZ4 cannot expand its input more than about 255 times (a match of 255·n bytes costs n bytes):
     * a buffer declaring more than this many bytes per compressed byte is corrupt or hostile, and is
     * refused before anything is allocated for it.
     */
    public static final long MAX_RATIO = 255;
    /** Slack over the ratio for tiny buffers, whose frame header outweighs their content. */
    private static final long RATIO_SLACK = 1024;
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();

    private static byte headerChecksum() {
        byte[] descriptor = {FLG, BD};
        return (byte) ((XXHashFactory.fastestInstance().hash32().hash(descriptor, 0, 2, 0) >> 8) & 0xFF);
    }

    /**
     * The buffer {@link #compress} asks its allocator for (before the allocator rounds it) for a
     * buffer of {@code size} bytes: sized by the blocks' real lengths, so that a small buffer
     * (validity, offsets) does not ask for a whole block's bound. A writer that must reserve what
     * compressing takes (the shuffle's drain) sizes its reservation with it.
     */
    public static long compressedCapacity(long size) {
        long full = size / BLOCK;
        int rest = (int) (size % BLOCK);
        return CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + 7L + full * (4 + COMPRESSOR.maxCompressedLength(BLOCK))
                + (rest == 0 ? 0 : 4 + COMPRESSOR.maxCompressedLength(rest)) + 4;
    }

    @Override
    protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
        long size = uncompressed.writerIndex();
        if (size > Integer.MAX_VALUE - 1024) {
            throw new IllegalArgumentException("buffer of " + size + " bytes is too large to compress");
        }
        int n = (int) size;
        int start = (int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        long capacity = compressedCapacity(n);
        ArrowBuf result = allocator.buffer(capacity);
        try {
            ByteBuffer src = uncompressed.nioBuffer(0, n);
            ByteBuffer dst = result.nioBuffer(0, (int) capacity);
            int at = start;
            result.setInt(at, MAGIC);
            result.setByte(at + 4, FLG);
            result.setByte(at + 5, BD);
            result.setByte(at + 6, HC);
            at += 7;
            for (int from = 0; from < n; from += BLOCK) {
                int len = Math.min(BLOCK, n - from);
                int c = COMPRESSOR.compress(src, from, len, dst, at + 4, COMPRESSOR.maxCompressedLength(len));
                if (c >= len) {
                    result.setInt(at, len | UNCOMPRESSED_BIT);
                    result.setBytes(at + 4, uncompressed, from, len);
                    at += 4 + len;
                } else {
                    result.setInt(at, c);
                    at += 4 + c;
                }
            }
            result.setInt(at, 0); // end mark
            result.writerIndex(at + 4);
            return result;
        } catch (RuntimeException | Error e) {
            result.close();
            throw e;
        }
    }

    @Override
    protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
        long length = readUncompressedLength(compressed);
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bad uncompressed length " + length + " in an LZ4 buffer");
        }
        long body = compressed.writerIndex() - CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        if (length > body * MAX_RATIO + RATIO_SLACK) {
            throw new IllegalArgumentException("LZ4 buffer of " + body + " bytes declares " + length
                    + " bytes uncompressed, more than LZ4 can expand to (" + MAX_RATIO + ":1): corrupt");
        }
        int start = (int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        if (compressed.writerIndex() >= start + 11 && compressed.getInt(start) == MAGIC && compressed.getByte(start + 4) == FLG
                && compressed.getByte(start + 5) == BD) {
            return decompressBlocks(allocator, compressed, (int) length);
        }
        return decompressFrame(allocator, compressed, length);
    }

    /**
     * Any other frame, through lz4-java's stream, into a buffer of the caller's allocator (so its
     * limit applies) a block at a time: nothing of the declared size is put on the heap.
     */
    private static ArrowBuf decompressFrame(BufferAllocator allocator, ArrowBuf compressed, long length) {
        byte[] input = bytes(compressed, CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH);
        ArrowBuf result = allocator.buffer(length);
        try (LZ4FrameInputStream lz4 = new LZ4FrameInputStream(new ByteArrayInputStream(input))) {
            byte[] chunk = new byte[(int) Math.min(BLOCK, length)];
            long at = 0;
            while (at < length) {
                int n = lz4.read(chunk, 0, (int) Math.min(chunk.length, length - at));
                if (n < 0) {
                    throw new IOException("LZ4 frame ended after " + at + " of " + length + " bytes");
                }
                result.setBytes(at, chunk, 0, n);
                at += n;
            }
            result.writerIndex(length);
            return result;
        } catch (IOException e) {
            result.close();
            throw new UncheckedIOException("LZ4 decompression failed", e);
        } catch (RuntimeException | Error e) {
            result.close();
            throw e;
        }
    }

    /** A frame of independent blocks without checksums, block by block into one new buffer. */
    private static ArrowBuf decompressBlocks(BufferAllocator allocator, ArrowBuf compressed, int length) {
        long end = compressed.writerIndex();
        if (end > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("LZ4 buffer of " + end + " bytes is too large");
        }
        ArrowBuf result = allocator.buffer(length);
        try {
            ByteBuffer src = compressed.nioBuffer(0, (int) end);
            ByteBuffer dst = result.nioBuffer(0, length);
            int at = (int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + 7;
            int out = 0;
            while (true) {
                if (at + 4 > end) {
                    throw new IllegalArgumentException("LZ4 frame truncated after " + out + " of " + length + " bytes");
                }
                int word = compressed.getInt(at);
                at += 4;
                if (word == 0) {
                    break;
                }
                int len = word & ~UNCOMPRESSED_BIT;
                if (len > BLOCK || at + len > end) {
                    throw new IllegalArgumentException("bad LZ4 block of " + len + " bytes at offset " + (at - 4));
                }
                if ((word & UNCOMPRESSED_BIT) != 0) {
                    if (out + len > length) {
                        throw new IllegalArgumentException("LZ4 frame holds more than " + length + " bytes");
                    }
                    result.setBytes(out, compressed, at, len);
                    out += len;
                } else {
                    out += DECOMPRESSOR.decompress(src, at, len, dst, out, length - out);
                }
                at += len;
            }
            if (out != length) {
                throw new IllegalArgumentException("LZ4 frame ended after " + out + " of " + length + " bytes");
            }
            result.writerIndex(length);
            return result;
        } catch (RuntimeException | Error e) {
            result.close();
            throw e;
        }
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
