package io.sluice.shuffle;

import io.sluice.common.Closeables;
import io.sluice.common.types.Schema;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.BufferAllocator;

/** Reads segments of this worker's own map outputs straight from disk, without a socket. */
final class LocalSegments {
    private LocalSegments() {
    }

    /** A decoder over the segment of {@code block} under {@code root}; failures name the block and this server. */
    static SegmentDecoder open(Path root, BlockLocation block, long expectedLength, Schema schema,
            BufferAllocator allocator) {
        FileChannel data = null;
        try {
            SegmentIndex.Segment segment = SegmentIndex.read(
                    ShuffleBlocks.indexFile(root, block.shuffleId(), block.map()), block.partition());
            if (segment.length() != expectedLength) {
                throw block.failure("segment has " + segment.length() + " bytes, the map status recorded "
                        + expectedLength + " (stale or corrupt map output)", null);
            }
            data = FileChannel.open(ShuffleBlocks.dataFile(root, block.shuffleId(), block.map()), StandardOpenOption.READ);
            return new SegmentDecoder(ChecksumChannel.ofFile(data, segment.offset(), segment.length(), segment.crc()),
                    segment.rows(), schema, allocator, block);
        } catch (NoSuchFileException e) {
            Closeables.closeOnFailure(data, e);
            throw block.failure("no map output on local disk: " + e.getMessage(), e);
        } catch (IOException e) {
            Closeables.closeOnFailure(data, e);
            throw block.failure("cannot read local map output: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            Closeables.closeOnFailure(data, e);
            throw e;
        }
    }
}
