package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.zip.CRC32C;

/**
 * Reads exactly one segment of {@code length} bytes from {@code in}, computing its CRC32C on the
 * way; {@link #verifyComplete()} then checks that all of it arrived and matches. Reading past the
 * segment gives end-of-stream, so a decoder can never run into the next segment. A segment of up
 * to {@link #VERIFY_FIRST_BYTES} is read whole and checked before its first byte is handed out,
 * so a corrupt one is never decoded; a longer one is checked at its end (its decoding is bounded
 * all the same: the codecs refuse declared sizes out of proportion to the bytes).
 */
final class ChecksumChannel implements ReadableByteChannel {
    /** Segments up to this size are verified before decoding; as much as a remote segment may queue. */
    static final int VERIFY_FIRST_BYTES = RemoteSegment.HIGH_WATER;

    private final ReadableByteChannel in;
    private final long length;
    private final int expectedCrc;
    private final CRC32C crc = new CRC32C();
    private long read;
    private ByteBuffer verified;

    ChecksumChannel(ReadableByteChannel in, long length, int expectedCrc) {
        this.in = requireNonNull(in, "in is null");
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        this.length = length;
        this.expectedCrc = expectedCrc;
    }

    long length() {
        return length;
    }

    long bytesRead() {
        return read;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (length <= VERIFY_FIRST_BYTES) {
            return readVerified(dst);
        }
        return readThrough(dst);
    }

    private int readVerified(ByteBuffer dst) throws IOException {
        if (verified == null) {
            ByteBuffer whole = ByteBuffer.allocate((int) length);
            while (whole.hasRemaining()) {
                readThrough(whole);
            }
            verifyComplete();
            verified = whole.flip();
        }
        if (!verified.hasRemaining()) {
            return -1;
        }
        int n = Math.min(dst.remaining(), verified.remaining());
        dst.put(verified.slice(verified.position(), n));
        verified.position(verified.position() + n);
        return n;
    }

    private int readThrough(ByteBuffer dst) throws IOException {
        if (read == length) {
            return -1;
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        int start = dst.position();
        int limit = dst.limit();
        long left = length - read;
        if (left < dst.remaining()) {
            dst.limit(start + (int) left);
        }
        int n;
        try {
            n = in.read(dst);
        } finally {
            dst.limit(limit);
        }
        if (n < 0) {
            throw new IOException("segment truncated: got " + read + " of " + length + " bytes");
        }
        ByteBuffer chunk = dst.duplicate();
        chunk.position(start).limit(start + n);
        crc.update(chunk);
        read += n;
        return n;
    }

    /** Throws if the segment was not read to its end or its checksum differs from the index's. */
    void verifyComplete() throws IOException {
        if (read != length) {
            throw new IOException("segment decoded after " + read + " of " + length + " bytes (truncated or corrupt)");
        }
        int actual = (int) crc.getValue();
        if (actual != expectedCrc) {
            throw new IOException("checksum mismatch: CRC32C " + Integer.toHexString(actual) + ", index says "
                    + Integer.toHexString(expectedCrc));
        }
    }

    @Override
    public boolean isOpen() {
        return in.isOpen();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
