package io.sluice.shuffle;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Writes real map outputs (data + index files) for server, client and reader tests: partition
 * {@code r} of map {@code m} gets {@code rows[r]} rows {@code (id, text)} with ids
 * {@code m * 1_000_000_000 + r * 1_000_000 + i}, so a reader can check exactly what arrived.
 */
final class MapOutputFixture {
    static final Schema SCHEMA = new Schema(List.of(new Field("id", DataType.INT64), new Field("text", DataType.UTF8)));

    private MapOutputFixture() {
    }

    static long id(int map, int partition, int row) {
        return map * 1_000_000_000L + partition * 1_000_000L + row;
    }

    /** Writes map output {@code map} of {@code shuffleId} under {@code root}; returns the segment lengths. */
    static long[] write(Path root, String shuffleId, int map, int[] rows, BufferAllocator allocator,
            ShuffleCompression compression) throws Exception {
        return write(root, shuffleId, map, rows, allocator, compression, "");
    }

    /** The same, committed as an attempt of task {@code owner}. */
    static long[] write(Path root, String shuffleId, int map, int[] rows, BufferAllocator allocator,
            ShuffleCompression compression, String owner) throws Exception {
        Files.createDirectories(ShuffleBlocks.shuffleDirectory(root, shuffleId));
        MapOutputWriter writer = new MapOutputWriter(ShuffleBlocks.dataFile(root, shuffleId, map),
                ShuffleBlocks.indexFile(root, shuffleId, map), map, SCHEMA, rows.length, allocator, compression, 4096,
                50_000);
        try {
            for (int r = 0; r < rows.length; r++) {
                for (int from = 0; from < rows[r]; from += 3000) {
                    int n = Math.min(3000, rows[r] - from);
                    long[] ids = new long[n];
                    String[] texts = new String[n];
                    for (int i = 0; i < n; i++) {
                        ids[i] = id(map, r, from + i);
                        texts[i] = "row " + ids[i];
                    }
                    writer.add(Batch.of(SCHEMA, new Col[] {Col.ofLongs(DataType.INT64, ids, null), Col.ofStrings(texts, null)},
                            n, allocator), r, null);
                }
            }
            return writer.commit(owner);
        } catch (Exception e) {
            writer.abort();
            throw e;
        }
    }
}
