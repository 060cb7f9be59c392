package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Lz4FrameCodec;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.rounding.RoundingPolicy;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;

/**
 * The Arrow memory that writing one batch of a shuffle writer's drain allocates, as the allocator
 * counts it: the gathered vectors (Arrow allocates a fixed-width vector's validity and values as
 * one buffer, a string vector's offsets and validity as one and its bytes as another, each rounded
 * up by the allocator's {@link RoundingPolicy}) and, held together until the message is written,
 * the codec's output buffer for each of their buffers (its bound, rounded too). The writer reserves
 * this ahead from the allocator it drains into, so a drain never asks for memory that others may
 * have taken (see {@link MapOutputWriter}).
 *
 * <p>Exact for null, boolean, fixed-width and string/binary vectors; a nested column (copied row by
 * row, its buffers grown by doubling) is bounded by four times its source bytes.
 */
record DrainFootprint(ShuffleCompression compression, RoundingPolicy rounding) {
    /**
     * The footprint a drain batch is never cut below (a batch of fewer rows only when one row takes
     * more), whatever the headroom: cut further, a drain short of memory would write a message per
     * row or two, its headers outweighing its rows, however many rows it holds.
     */
    static final long LEAST_BATCH_BYTES = 64 * 1024;

    /** What a codec adds to a buffer beyond its bytes at most, and what a buffer's rounding adds (per buffer). */
    private static final long PER_BUFFER = 128;

    DrainFootprint {
        requireNonNull(compression, "compression is null");
        requireNonNull(rounding, "rounding is null");
    }

    /**
     * Gathering {@code rows} rows into a vector of {@code sample}'s kind and compressing it, where
     * {@code variableBytes} is the gathered rows' string bytes (string vectors) and
     * {@code sourceBytes} what the rows take in the source (nested vectors).
     */
    long gathered(FieldVector sample, int rows, long variableBytes, long sourceBytes) {
        long validity = (rows + 7L) >>> 3;
        if (sample instanceof NullVector) {
            return 0;
        }
        if (sample instanceof BitVector) {
            return rounded(2 * roundUp8(validity)) + 2 * compressed(validity);
        }
        if (sample instanceof BaseFixedWidthVector fixed) {
            long values = (long) rows * fixed.getTypeWidth();
            return rounded(roundUp8(validity) + roundUp8(values)) + compressed(validity) + compressed(values);
        }
        if (sample instanceof BaseVariableWidthVector) {
            long offsets = 4L * (rows + 1);
            return rounded(Math.max(1, variableBytes)) + rounded(roundUp8((rows + 8L) >>> 3) + roundUp8(offsets))
                    + compressed(validity) + compressed(offsets) + compressed(variableBytes);
        }
        long copied = 4 * sourceBytes + PER_BUFFER;
        return copied + compressed(copied);
    }

    /** Compressing {@code vector}'s buffers once it is moved into the drain's allocator (what it holds counts there too). */
    long moved(FieldVector vector) {
        long bytes = 0;
        for (ArrowBuf buffer : vector.getFieldBuffers()) {
            bytes += buffer.getActualMemoryConsumed() + compressed(buffer.writerIndex());
        }
        for (FieldVector child : vector.getChildrenFromFields()) {
            bytes += moved(child);
        }
        return bytes;
    }

    /**
     * What to reserve ahead for a drain batch of {@code rows} rows of {@code rowBytes} each (the most
     * a row of any held batch took) over {@code columns} columns: every buffer rounded up to twice
     * its size, and the codec's bound of each, rounded likewise. The drain checks each batch's
     * real footprint against what was reserved and writes fewer rows when a batch would not fit.
     */
    long estimate(long rows, long rowBytes, int columns) {
        long raw = rows * rowBytes;
        long buffers = 3L * columns;
        long gathered = 2 * (raw + 8 * buffers);
        return gathered + (compression == ShuffleCompression.NONE ? 0 : 2 * (raw + (raw >>> 7) + PER_BUFFER * buffers));
    }

    /** The codec's output buffer for {@code size} bytes, as the allocator counts it (none without compression). */
    long compressed(long size) {
        if (compression == ShuffleCompression.NONE) {
            return 0;
        }
        if (size == 0) {
            return rounded(8);
        }
        long capacity = compression == ShuffleCompression.LZ4_FRAME
                ? Lz4FrameCodec.compressedCapacity(size)
                : 8 + size + (size >>> 8) + PER_BUFFER; // zstd's compressBound, with its small-input slack
        return rounded(capacity);
    }

    private long rounded(long size) {
        return rounding.getRoundedSize(size);
    }

    private static long roundUp8(long size) {
        return (size + 7) & ~7L;
    }
}
