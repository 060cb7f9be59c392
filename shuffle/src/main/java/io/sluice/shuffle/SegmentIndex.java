package io.sluice.shuffle;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The index file of one map output: where each reduce partition's segment lies in the data file,
 * its row count and its CRC32C.
 *
 * <pre>
 * magic:i32 = "SLIX"  version:i32 = 1  partitions:i32
 * then per partition: offset:i64  length:i64  rows:i64  crc32c:i32
 * </pre>
 */
final class SegmentIndex {
    private static final int MAGIC = 0x534c4958;
    private static final int VERSION = 1;
    private static final int HEADER = 12;
    private static final int ENTRY = 28;

    /** One partition's segment; {@code length} 0 means the partition got no rows and has no bytes. */
    record Segment(long offset, long length, long rows, int crc) {
        Segment {
            if (offset < 0 || length < 0 || rows < 0) {
                throw new IllegalArgumentException("bad segment offset=" + offset + " length=" + length + " rows=" + rows);
            }
        }
    }

    private SegmentIndex() {
    }

    static void write(Path file, Segment[] segments) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(HEADER + ENTRY * segments.length);
        buffer.putInt(MAGIC).putInt(VERSION).putInt(segments.length);
        for (Segment s : segments) {
            buffer.putLong(s.offset()).putLong(s.length()).putLong(s.rows()).putInt(s.crc());
        }
        buffer.flip();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        }
    }

    /** Reads the entry of {@code partition}; a malformed index or an out-of-range partition is an IOException. */
    static Segment read(Path file, int partition) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = readFully(in, 0, HEADER, file);
            if (header.getInt() != MAGIC || header.getInt() != VERSION) {
                throw new IOException("shuffle index " + file + " is not a version " + VERSION + " index");
            }
            int partitions = header.getInt();
            if (partition < 0 || partition >= partitions) {
                throw new IOException("shuffle index " + file + " has " + partitions + " partitions, not " + partition);
            }
            ByteBuffer entry = readFully(in, HEADER + (long) ENTRY * partition, ENTRY, file);
            return new Segment(entry.getLong(), entry.getLong(), entry.getLong(), entry.getInt());
        } catch (IllegalArgumentException e) {
            throw new IOException("shuffle index " + file + " is corrupt: " + e.getMessage());
        }
    }

    private static ByteBuffer readFully(FileChannel in, long position, int size, Path file) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(size);
        while (buffer.hasRemaining()) {
            if (in.read(buffer, position + buffer.position()) < 0) {
                throw new IOException("shuffle index " + file + " is truncated");
            }
        }
        return buffer.flip();
    }
}
