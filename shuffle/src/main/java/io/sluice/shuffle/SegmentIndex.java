package io.sluice.shuffle;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The index file of one map output: where each reduce partition's segment lies in the data file,
 * its row count and its CRC32C.
 *
 * <pre>
 * magic:i32 = "SLIX"  version:i32 = 1  partitions:i32
 * then per partition: offset:i64  length:i64  rows:i64  crc32c:i32
 * then the owner: length:i32  UTF-8 bytes (the task whose attempt committed the output)
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

    static void write(Path file, Segment[] segments, String owner) throws IOException {
        byte[] ownerBytes = owner.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(HEADER + ENTRY * segments.length + 4 + ownerBytes.length);
        buffer.putInt(MAGIC).putInt(VERSION).putInt(segments.length);
        for (Segment s : segments) {
            buffer.putLong(s.offset()).putLong(s.length()).putLong(s.rows()).putInt(s.crc());
        }
        buffer.putInt(ownerBytes.length).put(ownerBytes);
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

    /** The task whose attempt committed this output; empty when unknown. */
    static String owner(Path file) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = readFully(in, 0, HEADER, file);
            if (header.getInt() != MAGIC || header.getInt() != VERSION) {
                throw new IOException("shuffle index " + file + " is not a version " + VERSION + " index");
            }
            long at = HEADER + (long) ENTRY * header.getInt();
            int length = readFully(in, at, 4, file).getInt();
            if (length < 0 || length > 4096) {
                throw new IOException("shuffle index " + file + " is corrupt: owner of " + length + " bytes");
            }
            return new String(readFully(in, at + 4, length, file).array(), StandardCharsets.UTF_8);
        }
    }

    /** Every partition's segment length, in partition order. */
    static long[] lengths(Path file) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = readFully(in, 0, HEADER, file);
            if (header.getInt() != MAGIC || header.getInt() != VERSION) {
                throw new IOException("shuffle index " + file + " is not a version " + VERSION + " index");
            }
            int partitions = header.getInt();
            ByteBuffer entries = readFully(in, HEADER, ENTRY * partitions, file);
            long[] lengths = new long[partitions];
            for (int r = 0; r < partitions; r++) {
                entries.position(ENTRY * r + 8);
                lengths[r] = entries.getLong();
            }
            return lengths;
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
