package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Exactly one segment of {@code length} bytes whose CRC32C is checked against the index before
 * its first byte is handed out, whatever its size, so a corrupt segment is never decoded (its
 * headers could declare anything). The check reads every byte once: a segment of a local data
 * file is then read again from the file; one arriving over a connection is held in memory up to
 * {@link #IN_MEMORY_BYTES}, and a longer one is spooled to a file under the spool directory as it
 * is checked (deleted on close). Reading past the segment gives end-of-stream, so a decoder can
 * never run into the next segment; {@link #verifyComplete()} then checks that it read all of it.
 */
final class ChecksumChannel implements ReadableByteChannel {
    /** Segments arriving over a connection up to this size are checked in memory; as much as a remote segment may queue. */
    static final int IN_MEMORY_BYTES = RemoteSegment.HIGH_WATER;
    private static final int CHUNK = 64 << 10;

    private final ReadableByteChannel in;
    private final long length;
    private final int expectedCrc;
    private final Replay replay;
    private ReadableByteChannel checked;
    private long served;

    /** How the bytes are read again once checked. */
    private interface Replay {
        /** The segment's bytes, read from {@code in} through {@code checked} (which computes the CRC), to be read again. */
        ReadableByteChannel check(Checked checked) throws IOException;

        default void close() throws IOException {
        }
    }

    private ChecksumChannel(ReadableByteChannel in, long length, int expectedCrc, Replay replay) {
        this.in = requireNonNull(in, "in is null");
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        this.length = length;
        this.expectedCrc = expectedCrc;
        this.replay = replay;
    }

    /** The segment at {@code offset} of a local data file: checked by a first pass, then read again from the file. */
    static ChecksumChannel ofFile(FileChannel file, long offset, long length, int expectedCrc) {
        return new ChecksumChannel(file, length, expectedCrc, checked -> {
            file.position(offset);
            drain(checked, null);
            file.position(offset);
            return new Bounded(file, length);
        });
    }

    /**
     * The segment arriving on {@code in}: checked in memory up to {@link #IN_MEMORY_BYTES}, else
     * spooled to a new file under {@code spoolDirectory} while it is checked.
     */
    static ChecksumChannel ofStream(ReadableByteChannel in, long length, int expectedCrc, Path spoolDirectory) {
        requireNonNull(spoolDirectory, "spoolDirectory is null");
        if (length <= IN_MEMORY_BYTES) {
            return new ChecksumChannel(in, length, expectedCrc, checked -> {
                ByteBuffer whole = ByteBuffer.allocate((int) length);
                while (whole.hasRemaining() && checked.read(whole) >= 0) {
                    // fills the buffer; a short segment fails the check below
                }
                checked.verify();
                return Channels.newChannel(new ByteArrayInputStream(whole.array()));
            });
        }
        return new ChecksumChannel(in, length, expectedCrc, new Spool(spoolDirectory));
    }

    long length() {
        return length;
    }

    /** Bytes of the segment read so far (the check reads them all before the first is handed out). */
    long bytesRead() {
        return checked == null ? 0 : length;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (checked == null) {
            checked = replay.check(new Checked());
        }
        int n = checked.read(dst);
        if (n > 0) {
            served += n;
        }
        return n;
    }

    /** Throws if the decoder stopped before the segment's end (its stream ended early: corrupt). */
    void verifyComplete() throws IOException {
        if (checked == null) {
            checked = replay.check(new Checked());
        }
        if (served != length) {
            throw new IOException("segment decoded after " + served + " of " + length + " bytes (truncated or corrupt)");
        }
    }

    @Override
    public boolean isOpen() {
        return in.isOpen();
    }

    @Override
    public void close() throws IOException {
        try {
            replay.close();
        } finally {
            in.close();
        }
    }

    /** Reads {@code checked} to its end, writing each chunk to {@code out} when given; then verifies it. */
    private static void drain(Checked checked, FileChannel out) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        while (checked.read(chunk.clear()) >= 0) {
            chunk.flip();
            while (out != null && chunk.hasRemaining()) {
                out.write(chunk);
            }
        }
        checked.verify();
    }

    /** The segment's bytes from {@code in}, bounded to {@code length}, with their CRC32C. */
    private final class Checked {
        private final CRC32C crc = new CRC32C();
        private long read;

        int read(ByteBuffer dst) throws IOException {
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

        void verify() throws IOException {
            if (read != length) {
                throw new IOException("segment truncated: got " + read + " of " + length + " bytes");
            }
            int actual = (int) crc.getValue();
            if (actual != expectedCrc) {
                throw new IOException("checksum mismatch: CRC32C " + Integer.toHexString(actual) + ", index says "
                        + Integer.toHexString(expectedCrc) + " (checked before decoding)");
            }
        }
    }

    /** A long segment written to a file as it is checked, read back from it, deleted on close. */
    private static final class Spool implements Replay {
        private final Path directory;
        private Path file;
        private FileChannel channel;

        Spool(Path directory) {
            this.directory = directory;
        }

        @Override
        public ReadableByteChannel check(Checked checked) throws IOException {
            Files.createDirectories(directory);
            file = Files.createTempFile(directory, "segment-", ".spool");
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            drain(checked, channel);
            channel.position(0);
            return channel;
        }

        @Override
        public void close() throws IOException {
            try {
                if (channel != null) {
                    channel.close();
                }
            } finally {
                if (file != null) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /** At most {@code length} bytes of {@code in}, then end-of-stream. */
    private static final class Bounded implements ReadableByteChannel {
        private final ReadableByteChannel in;
        private long left;

        Bounded(ReadableByteChannel in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (left == 0) {
                return -1;
            }
            int limit = dst.limit();
            if (left < dst.remaining()) {
                dst.limit(dst.position() + (int) left);
            }
            try {
                int n = in.read(dst);
                if (n > 0) {
                    left -= n;
                }
                return n;
            } finally {
                dst.limit(limit);
            }
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
