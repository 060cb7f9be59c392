package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One sorted run a {@link MapOutputWriter} spilled to disk: per partition, the byte range of its
 * record batch messages in {@code file}, which a commit copies as raw bytes (not decoded) into
 * that partition's segment.
 */
record ShuffleSpill(Path file, long[] offsets, long[] lengths) {
    ShuffleSpill {
        requireNonNull(file, "file is null");
        if (offsets.length != lengths.length) {
            throw new IllegalArgumentException(offsets.length + " offsets for " + lengths.length + " lengths");
        }
    }

    /** Copies partition {@code r}'s messages to {@code out}, through {@code buffer}. */
    void copyPartition(int r, OutputStream out, ByteBuffer buffer) throws IOException {
        long length = lengths[r];
        if (length == 0) {
            return;
        }
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long position = offsets[r];
            long end = position + length;
            while (position < end) {
                buffer.clear();
                buffer.limit((int) Math.min(buffer.capacity(), end - position));
                int n = in.read(buffer, position);
                if (n < 0) {
                    throw new IOException("spill file " + file + " ended early");
                }
                out.write(buffer.array(), 0, n);
                position += n;
            }
        }
    }
}
