package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.operators.memory.ArrowMemoryListener;
import io.sluice.operators.memory.MemoryBudget;
import io.sluice.operators.memory.MemoryMetricsSink;
import io.sluice.operators.memory.TaskMemoryPool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A map output written with a small heap bound, so rows spill many times (or, with one partition,
 * go straight to the data file): every segment still holds exactly its rows in arrival order, and
 * only the data and index files remain.
 */
class MapOutputWriterTest {
    private static final int ROWS = 20_000;

    @TempDir
    Path root;

    private RootAllocator allocator;

    @BeforeEach
    void start() {
        allocator = new RootAllocator(256L << 20);
    }

    @AfterEach
    void stop() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 300})
    void spilledOutputReadsBackExactly(int partitions) throws Exception {
        Path dir = Files.createDirectories(root.resolve("j-spill"));
        MapOutputWriter writer = new MapOutputWriter(ShuffleBlocks.dataFile(root, "j-spill", 0),
                ShuffleBlocks.indexFile(root, "j-spill", 0), 0, MapOutputFixture.SCHEMA, partitions, allocator,
                ShuffleCompression.LZ4_FRAME, 512, 1000);
        writeAndCheck(partitions, writer, dir);
    }

    /** The same with no row bound but 16 KiB of task memory: the buffers spill when it is refused. */
    @ParameterizedTest
    @ValueSource(ints = {5, 40})
    void buffersSpillWhenTheirMemoryIsRefused(int partitions) throws Exception {
        Path dir = Files.createDirectories(root.resolve("j-spill"));
        long[] spills = new long[1];
        MemoryMetricsSink sink = countingSpills(spills);
        MemoryBudget budget = new MemoryBudget("w", 16 << 10);
        try (TaskMemoryPool pool = budget.newTaskPool("t")) {
            MapOutputWriter writer = new MapOutputWriter(ShuffleBlocks.dataFile(root, "j-spill", 0),
                    ShuffleBlocks.indexFile(root, "j-spill", 0), 0, MapOutputFixture.SCHEMA, partitions, allocator,
                    ShuffleCompression.LZ4_FRAME, 512, Long.MAX_VALUE, pool.register("shuffle buffers", sink));
            writeAndCheck(partitions, writer, dir);
        }
        assertThat(spills[0]).isGreaterThan(5);
        assertThat(budget.reserved()).isZero();
    }

    /**
     * Batches held as Arrow vectors grow the task's memory only through its allocator (no heap to
     * reserve): the writer still spills once the task is past its share, so what it holds stays
     * near the share instead of growing with the input.
     */
    @Test
    void arrowBatchesSpillWhenTheTaskIsPastItsShare() throws Exception {
        Path dir = Files.createDirectories(root.resolve("j-spill"));
        long[] spills = new long[1];
        MemoryMetricsSink sink = countingSpills(spills);
        MemoryBudget budget = new MemoryBudget("w", 256 << 10);
        int batches = 40;
        int rows = 512;
        try (TaskMemoryPool pool = budget.newTaskPool("t");
                BufferAllocator task = allocator.newChildAllocator("t",
                        new ArrowMemoryListener(pool.register("Arrow buffers", MemoryMetricsSink.NONE)), 0, Long.MAX_VALUE)) {
            MapOutputWriter writer = new MapOutputWriter(ShuffleBlocks.dataFile(root, "j-spill", 0),
                    ShuffleBlocks.indexFile(root, "j-spill", 0), 0, MapOutputFixture.SCHEMA, 2, task,
                    ShuffleCompression.LZ4_FRAME, rows, Long.MAX_VALUE, pool.register("shuffle buffers", sink));
            for (int b = 0; b < batches; b++) {
                writer.add(textBatch((long) b * rows, rows, task), 0, null);
            }
            long[] lengths = writer.commit("");
            assertThat(spills[0]).isGreaterThan(3);
            // 40 batches of about 30 KiB each were written; the writer held a few at a time, besides
            // the drain's memory it keeps reserved in the allocator
            assertThat(task.getPeakMemoryAllocation()).isLessThan(384 << 10);
            assertThat(readIds(lengths, "j-spill", 1, 1)).isEqualTo((long) batches * rows);
            assertThat(lengths[1]).isZero();
        }
        assertThat(budget.reserved()).isZero();
    }

    /**
     * On a small worker a whole batch's drain footprint (its buffers rounded up to powers of two,
     * and their compressed copies: about 1.6 MB for these 8,192 rows) passes a task's share (here
     * 1.1 MiB: two tasks on 3 MiB). The writer is promised a part of the share and writes smaller
     * batches: after each batch it takes, what the task's allocator holds (rows held and the
     * drain's promise) is within the share, and at most one more batch, the one coming in, passes
     * it; every row arrives.
     */
    @Test
    void aDrainIsPromisedAPartOfTheTasksShareNotAWholeBatch() throws Exception {
        Files.createDirectories(root.resolve("j-part"));
        MemoryBudget budget = new MemoryBudget("w", 3L << 20);
        int batches = 6;
        int rows = 8192;
        try (TaskMemoryPool pool = budget.newTaskPool("t");
                TaskMemoryPool other = budget.newTaskPool("other");
                BufferAllocator task = allocator.newChildAllocator("t",
                        new ArrowMemoryListener(pool.register("Arrow buffers", MemoryMetricsSink.NONE)), 0, Long.MAX_VALUE)) {
            long share = (long) (budget.limit() * MemoryBudget.SPILLABLE_SHARE / budget.openPools());
            MapOutputWriter writer = new MapOutputWriter(ShuffleBlocks.dataFile(root, "j-part", 0),
                    ShuffleBlocks.indexFile(root, "j-part", 0), 0, MapOutputFixture.SCHEMA, 3, task,
                    ShuffleCompression.LZ4_FRAME, rows, Long.MAX_VALUE, pool.register("shuffle buffers", MemoryMetricsSink.NONE));
            long batchBytes = 0;
            for (int b = 0; b < batches; b++) {
                long before = task.getAllocatedMemory();
                Batch batch = textBatch((long) b * rows, rows, task);
                batchBytes = Math.max(batchBytes, task.getAllocatedMemory() - before);
                writer.add(batch, 0, byId((long) b * rows, rows, 3));
                assertThat(task.getAllocatedMemory()).as("held after batch " + b).isLessThanOrEqualTo(share);
            }
            long[] lengths = writer.commit("");
            assertThat(task.getPeakMemoryAllocation()).isLessThanOrEqualTo(share + batchBytes);
            assertThat(readIds(lengths, "j-part", 3, 3)).isEqualTo((long) batches * rows);
        }
        assertThat(budget.reserved()).isZero();
    }

    /**
     * The drain's memory is reserved in the allocator while the writer holds rows: once other
     * allocations take everything else the worker's allocator has (another task, a join build),
     * committing still writes every row instead of failing to allocate a gathered batch or its
     * compressed copy.
     */
    @Test
    void aDrainHasItsMemoryWhenOthersTakeTheRest() throws Exception {
        Files.createDirectories(root.resolve("j-drain"));
        try (BufferAllocator worker = new RootAllocator(3L << 20);
                BufferAllocator task = worker.newChildAllocator("task", 0, Long.MAX_VALUE);
                BufferAllocator other = worker.newChildAllocator("other", 0, Long.MAX_VALUE)) {
            MapOutputWriter writer = new MapOutputWriter(ShuffleBlocks.dataFile(root, "j-drain", 0),
                    ShuffleBlocks.indexFile(root, "j-drain", 0), 0, MapOutputFixture.SCHEMA, 3, task,
                    ShuffleCompression.LZ4_FRAME, 4096, Long.MAX_VALUE);
            for (int b = 0; b < 3; b++) {
                writer.add(textBatch(b * 4096L, 4096, task), 0, byId(b * 4096L, 4096, 3));
            }
            List<ArrowBuf> taken = takeTheRest(other);
            try {
                long[] lengths = writer.commit("");
                taken.forEach(ArrowBuf::close);
                taken.clear();
                assertThat(readIds(lengths, "j-drain", 3, 3)).isEqualTo(3 * 4096);
            } finally {
                taken.forEach(ArrowBuf::close);
            }
            assertThat(task.getAllocatedMemory()).isZero();
        }
    }

    /**
     * With little memory left in the allocator, the writer cannot reserve a whole batch's drain: it
     * spills while what it holds still fits what it has (writing smaller batches), and every row
     * arrives; nothing fails to allocate.
     */
    @Test
    void aWriterShortOfDrainMemorySpillsEarlyRatherThanFails() throws Exception {
        Files.createDirectories(root.resolve("j-short"));
        long[] spills = new long[1];
        try (BufferAllocator worker = new RootAllocator(2L << 20);
                BufferAllocator task = worker.newChildAllocator("task", 0, Long.MAX_VALUE);
                BufferAllocator other = worker.newChildAllocator("other", 0, Long.MAX_VALUE);
                TaskMemoryPool pool = TaskMemoryPool.unbounded("t")) {
            List<Batch> input = new ArrayList<>();
            for (int b = 0; b < 8; b++) {
                input.add(textBatch(b * 1024L, 1024, task));
            }
            List<ArrowBuf> taken = new ArrayList<>();
            for (int i = 0; i < 64 && worker.getHeadroom() > (400 << 10); i++) {
                taken.add(other.buffer(64 << 10));
            }
            try {
                MapOutputWriter writer = new MapOutputWriter(ShuffleBlocks.dataFile(root, "j-short", 0),
                        ShuffleBlocks.indexFile(root, "j-short", 0), 0, MapOutputFixture.SCHEMA, 3, task,
                        ShuffleCompression.LZ4_FRAME, 4096, Long.MAX_VALUE,
                        pool.register("shuffle buffers", countingSpills(spills)));
                for (int b = 0; b < input.size(); b++) {
                    writer.add(input.get(b), 0, byId(b * 1024L, 1024, 3));
                }
                long[] lengths = writer.commit("");
                assertThat(spills[0]).isGreaterThan(1);
                assertThat(readIds(lengths, "j-short", 3, 3)).isEqualTo(8 * 1024);
            } finally {
                taken.forEach(ArrowBuf::close);
            }
            assertThat(task.getAllocatedMemory()).isZero();
        }
    }

    /** Row {@code i} of a batch whose ids start at {@code first} goes to partition {@code id % partitions}. */
    private static int[] byId(long first, int rows, int partitions) {
        int[] target = new int[rows];
        for (int i = 0; i < rows; i++) {
            target[i] = (int) ((first + i) % partitions);
        }
        return target;
    }

    /** A batch of {@code rows} rows (id, text) with ids from {@code first}, allocated in {@code allocator}. */
    private static Batch textBatch(long first, int rows, BufferAllocator allocator) {
        long[] ids = new long[rows];
        String[] texts = new String[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = first + i;
            texts[i] = "text of row " + ids[i] + " padded to be wider";
        }
        Col[] cols = {Col.ofLongs(DataType.INT64, ids, null), Col.ofStrings(texts, null)};
        org.apache.arrow.vector.FieldVector[] vectors = {cols[0].write("id", allocator), cols[1].write("text", allocator)};
        return Batch.of(MapOutputFixture.SCHEMA, new Col[2], vectors, rows, allocator);
    }

    /** Allocates from {@code other} until its allocator refuses (at most 64 buffers of 64 KiB). */
    private static List<ArrowBuf> takeTheRest(BufferAllocator other) {
        List<ArrowBuf> taken = new ArrayList<>();
        try {
            for (int i = 0; i < 64; i++) {
                taken.add(other.buffer(64 << 10));
            }
        } catch (OutOfMemoryException e) {
            return taken;
        }
        throw new AssertionError("the allocator never refused");
    }

    /**
     * Reads partitions {@code [0, partitions)} of map 0 back and checks that partition {@code r}
     * holds ids {@code r, r + stride, ...} in order, each with its text; returns the row count.
     */
    private long readIds(long[] lengths, String shuffleId, int partitions, int stride) throws Exception {
        long total = 0;
        for (int r = 0; r < partitions; r++) {
            BlockLocation block = new BlockLocation("127.0.0.1", 1, shuffleId, 0, r);
            long expect = r;
            try (SegmentDecoder decoder = LocalSegments.open(root, block, lengths[r], MapOutputFixture.SCHEMA, allocator)) {
                Batch batch;
                while ((batch = decoder.next()) != null) {
                    try (Batch read = batch) {
                        Col ids = read.column(0);
                        Col texts = read.column(1);
                        for (int i = 0; i < read.rowCount(); i++) {
                            assertThat(ids.longs[i]).isEqualTo(expect);
                            assertThat(texts.strings[i]).isEqualTo("text of row " + expect + " padded to be wider");
                            expect += stride;
                            total++;
                        }
                    }
                }
            }
        }
        return total;
    }

    /** A metrics sink that counts the spills reported into {@code spills[0]}. */
    private static MemoryMetricsSink countingSpills(long[] spills) {
        return new MemoryMetricsSink() {
            @Override
            public void peakMemory(long bytes) {
            }

            @Override
            public void spilled(long bytes, long nanos) {
                spills[0]++;
            }
        };
    }

    private void writeAndCheck(int partitions, MapOutputWriter writer, Path dir) throws Exception {
        // Rows arrive in chunks of 70; row i goes to partition i % partitions.
        for (int from = 0; from < ROWS; from += 70) {
            for (int r = 0; r < partitions; r++) {
                int count = 0;
                long[] ids = new long[70];
                for (int i = from; i < Math.min(ROWS, from + 70); i++) {
                    if (i % partitions == r) {
                        ids[count++] = i;
                    }
                }
                if (count > 0) {
                    long[] exact = java.util.Arrays.copyOf(ids, count);
                    String[] texts = new String[count];
                    java.util.Arrays.fill(texts, "t");
                    writer.add(Batch.of(MapOutputFixture.SCHEMA, new Col[] {Col.ofLongs(DataType.INT64, exact, null),
                            Col.ofStrings(texts, null)}, count, allocator), r, null);
                }
            }
        }
        long[] lengths = writer.commit("");
        assertThat(writer.recordsWritten()).isEqualTo(ROWS);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()).toList())
                    .containsExactlyInAnyOrder("map-0.data", "map-0.index");
        }
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            // the rows are the job's: other users of the machine cannot read them
            Path data = dir.resolve("map-0.data");
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(data)))
                    .isEqualTo("rw-------");
        }
        long total = 0;
        for (int r = 0; r < partitions; r++) {
            BlockLocation block = new BlockLocation("127.0.0.1", 1, "j-spill", 0, r);
            long expect = r;
            try (SegmentDecoder decoder = LocalSegments.open(root, block, lengths[r], MapOutputFixture.SCHEMA,
                    allocator)) {
                Batch batch;
                while ((batch = decoder.next()) != null) {
                    try (Batch b = batch) {
                        assertThat(b.rowCount()).isLessThanOrEqualTo(512);
                        Col ids = b.column(0);
                        for (int i = 0; i < b.rowCount(); i++) {
                            assertThat(ids.longs[i]).isEqualTo(expect);
                            expect += partitions;
                            total++;
                        }
                    }
                }
            }
            assertThat(expect).as("partition %d complete", r).isGreaterThanOrEqualTo(ROWS);
        }
        assertThat(total).isEqualTo(ROWS);
    }

    /**
     * Two attempts of one map task commit the same output: the first stays (the second reports the
     * first's sizes and leaves no file behind); a recomputation by another task replaces it.
     */
    @Test
    void theFirstCommittedAttemptOfATaskWins() throws Exception {
        long[] first = MapOutputFixture.write(root, "j-twice", 0, new int[] {10, 20}, allocator,
                ShuffleCompression.NONE, "job1-s0-p0-l1");
        byte[] committed = Files.readAllBytes(ShuffleBlocks.dataFile(root, "j-twice", 0));
        long[] second = MapOutputFixture.write(root, "j-twice", 0, new int[] {30, 40}, allocator,
                ShuffleCompression.NONE, "job1-s0-p0-l1");
        assertThat(second).containsExactly(first);
        assertThat(Files.readAllBytes(ShuffleBlocks.dataFile(root, "j-twice", 0))).isEqualTo(committed);
        try (Stream<Path> files = Files.list(ShuffleBlocks.shuffleDirectory(root, "j-twice"))) {
            assertThat(files.map(f -> f.getFileName().toString()).toList())
                    .containsExactlyInAnyOrder("map-0.data", "map-0.index");
        }

        long[] recomputed = MapOutputFixture.write(root, "j-twice", 0, new int[] {30, 40}, allocator,
                ShuffleCompression.NONE, "job1-s0-p0-l2");
        assertThat(recomputed).isNotEqualTo(first);
        assertThat(SegmentIndex.lengths(ShuffleBlocks.indexFile(root, "j-twice", 0))).containsExactly(recomputed);
        assertThat(SegmentIndex.owner(ShuffleBlocks.indexFile(root, "j-twice", 0))).isEqualTo("job1-s0-p0-l2");
    }
}
