package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.kernels.Batch;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crafted shuffle segment fetched over a real socket: one LZ4 buffer of it declares 2 GB
 * uncompressed. With the index's stale checksum the fetch fails on the checksum before anything
 * is decoded, whatever the segment's size (one longer than what is checked in memory is spooled
 * to disk first, a local one read twice); with the checksum made to match, it fails on the declared
 * size before anything of that size is allocated. The server goes on serving the intact segments.
 */
class ShuffleDecompressionTest {
    private static final String JOB = "j";
    private static final long DECLARED = 2_000_000_000L;

    @TempDir
    Path root;
    @TempDir
    Path spool;

    private RootAllocator allocator;
    private ShuffleServer server;
    private ShuffleClient client;
    private long fetchPeak;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator(512L << 20);
        server = new ShuffleServer("127.0.0.1", 0, root).start();
        client = new ShuffleClient("tester", ShuffleClient.Options.defaults().withTimeout(Duration.ofSeconds(10))
                .withSpoolDirectory(spool));
    }

    @AfterEach
    void tearDown() {
        client.close();
        server.close();
        assertThat(allocator.getAllocatedMemory()).as("allocator empty afterwards").isZero();
        allocator.close();
    }

    @Test
    void aCorruptSegmentFailsOnItsChecksumBeforeItIsDecoded() throws Exception {
        long[] lengths = MapOutputFixture.write(root, "j-bomb", 0, new int[] {5000, 100}, allocator,
                ShuffleCompression.LZ4_FRAME);
        declareHugeLength(ShuffleBlocks.dataFile(root, "j-bomb", 0), 0, lengths[0]);

        assertThatThrownBy(() -> fetch("j-bomb", 0, lengths[0]))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("shuffle=j-bomb map=0 partition=0")
                .hasMessageContaining("checksum mismatch")
                .hasMessageNotContaining("declares");
        assertThat(fetchPeak).as("peak Arrow memory of the fetch").isLessThan(16L << 20);
        assertThat(fetch("j-bomb", 1, lengths[1])).as("the intact segment").isEqualTo(100);
    }

    @Test
    void aLongCorruptSegmentFailsOnItsChecksumBeforeItIsDecodedFetchedOrLocal() throws Exception {
        long[] lengths = MapOutputFixture.write(root, "j-long", 0, new int[] {1_000_000, 100}, allocator,
                ShuffleCompression.LZ4_FRAME);
        assertThat(lengths[0]).as("longer than what is checked in memory").isGreaterThan(ChecksumChannel.IN_MEMORY_BYTES);
        assertThat(fetch("j-long", 0, lengths[0])).as("the intact long segment").isEqualTo(1_000_000);
        declareHugeLength(ShuffleBlocks.dataFile(root, "j-long", 0), 0, lengths[0]);

        assertThatThrownBy(() -> fetch("j-long", 0, lengths[0]))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("shuffle=j-long map=0 partition=0")
                .hasMessageContaining("checksum mismatch")
                .hasMessageNotContaining("declares");
        assertThat(fetchPeak).as("peak Arrow memory of the fetch").isLessThan(1L << 20);
        try (Stream<Path> left = Files.list(spool)) {
            assertThat(left).as("spooled segments deleted").isEmpty();
        }

        BlockLocation local = new BlockLocation("127.0.0.1", server.port(), "j-long", 0, 0);
        try (BufferAllocator child = allocator.newChildAllocator("local", 0, Long.MAX_VALUE);
                SegmentDecoder decoder = LocalSegments.open(root, local, lengths[0], MapOutputFixture.SCHEMA, child)) {
            assertThatThrownBy(decoder::next)
                    .isInstanceOf(ShuffleFetchException.class)
                    .hasMessageContaining("shuffle=j-long map=0 partition=0")
                    .hasMessageContaining("checksum mismatch")
                    .hasMessageNotContaining("declares");
            assertThat(child.getPeakMemoryAllocation()).as("peak Arrow memory of the local read").isLessThan(1L << 20);
        }
        assertThat(fetch("j-long", 1, lengths[1])).as("the intact segment").isEqualTo(100);
    }

    @Test
    void aDeclaredSizeOutOfProportionIsRefusedBeforeAllocating() throws Exception {
        long[] lengths = MapOutputFixture.write(root, "j-size", 0, new int[] {5000, 100}, allocator,
                ShuffleCompression.LZ4_FRAME);
        Path data = ShuffleBlocks.dataFile(root, "j-size", 0);
        declareHugeLength(data, 0, lengths[0]);
        rewriteChecksum(data, ShuffleBlocks.indexFile(root, "j-size", 0), 0, lengths[0]);

        assertThatThrownBy(() -> fetch("j-size", 0, lengths[0]))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("shuffle=j-size map=0 partition=0")
                .hasMessageContaining("declares " + DECLARED + " bytes uncompressed");
        assertThat(fetchPeak).as("peak Arrow memory of the fetch").isLessThan(16L << 20);
        assertThat(fetch("j-size", 1, lengths[1])).as("the intact segment").isEqualTo(100);
    }

    /** Fetches a segment into a child allocator whose peak is kept in {@link #fetchPeak}; returns its rows. */
    private long fetch(String shuffleId, int partition, long length) {
        try (BufferAllocator child = allocator.newChildAllocator("fetch", 0, Long.MAX_VALUE)) {
            try {
                List<Batch> batches = client.fetchBatches("127.0.0.1", server.port(), JOB, shuffleId, 0, partition,
                        length, child);
                long rows = batches.stream().mapToLong(Batch::rowCount).sum();
                batches.forEach(Batch::close);
                return rows;
            } finally {
                fetchPeak = child.getPeakMemoryAllocation();
            }
        }
    }

    /** Overwrites the declared uncompressed length of the first LZ4 frame in the segment at {@code [0, length)}. */
    private static void declareHugeLength(Path data, long offset, long length) throws Exception {
        byte[] bytes = Files.readAllBytes(data);
        int frame = -1;
        for (int i = (int) offset + 8; i + 3 < offset + length; i++) {
            if (bytes[i] == 0x04 && bytes[i + 1] == 0x22 && bytes[i + 2] == 0x4D && bytes[i + 3] == 0x18) {
                frame = i;
                break;
            }
        }
        assertThat(frame).as("an LZ4 frame in the segment").isPositive();
        ByteBuffer.wrap(bytes, frame - 8, 8).order(ByteOrder.LITTLE_ENDIAN).putLong(DECLARED);
        Files.write(data, bytes);
    }

    /** Makes the index's CRC32C of the segment match its (altered) bytes. */
    private static void rewriteChecksum(Path data, Path index, int partition, long length) throws Exception {
        CRC32C crc = new CRC32C();
        crc.update(Files.readAllBytes(data), 0, (int) length);
        try (FileChannel channel = FileChannel.open(index, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).putInt(0, (int) crc.getValue()), 12 + 28L * partition + 24);
        }
    }

}
