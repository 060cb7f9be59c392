package io.sluice.datasource.file;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.ScanRowFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Reads one file format. A location is anything {@link SourceFiles} lists (a file, a directory, a
 * glob, several of these), as plain paths or any Hadoop {@code FileSystem} URI; the scan calls
 * {@link #inferSchema} and {@link #partitions} with one file at a time. Hive partition columns are
 * not the reader's concern: the scan prunes files by them and adds their values to the batches
 * ({@link PartitionValuesStream}), so {@link #read} is only asked for columns the files hold.
 * {@code options} are the table's format options in their normal form
 * ({@link io.sluice.logical.source.FormatOptions}); the same map reaches every method, on the
 * coordinator and on the workers (it travels in the plan's {@code TableSource}). Implementations
 * are stateless and thread-safe.
 */
public interface FormatReader {
    /**
     * Refuses options this format does not know (naming them and the known ones) or values it
     * cannot use (naming the option and the value), before any file is opened.
     */
    void checkOptions(Map<String, String> options);

    /** The schema of the data at {@code location}, found from its first file. */
    Schema inferSchema(String location, Map<String, String> options);

    /**
     * The units of scan work at {@code location}, in file order: one per CSV file, one per non-empty
     * Parquet row group. Paths in the result are fully qualified, so any node can open them.
     */
    default List<ScanPartition> partitions(String location, Map<String, String> options) {
        checkOptions(options);
        List<ScanPartition> partitions = new ArrayList<>();
        for (SourceFile file : SourceFiles.listing(location).files()) {
            partitions.addAll(partitions(file, options));
        }
        return partitions;
    }

    /**
     * The units of scan work of one listed file, made with what listing found (its length and
     * modification time) rather than by asking the file system again.
     */
    List<ScanPartition> partitions(SourceFile file, Map<String, String> options);

    /**
     * Streams one partition. Each batch holds exactly {@code columns} (names of {@code tableSchema},
     * in that order) and at most {@code batchSize} rows; batches are allocated from
     * {@code allocator} and owned by the caller. Closing the stream releases the file, whether or
     * not the stream was drained.
     */
    BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator, Map<String, String> options);

    /**
     * {@link #read(ScanPartition, Schema, List, int, BufferAllocator, Map)} that may drop the rows
     * {@code rows} rejects (null: none) and skip decoding their other columns; a format that cannot
     * returns every row (the default), since the test is applied above the scan as well.
     */
    default BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator, Map<String, String> options, ScanRowFilter rows) {
        return read(partition, tableSchema, columns, batchSize, allocator, options);
    }

    /**
     * The parts of a byte-range partition that have statistics of their own, in file order, each a
     * byte range read as {@code range} is (a Parquet range's row groups): a reader may skip the
     * parts a filter's statistics rule out, where the range's merged statistics rule out nothing.
     * The range alone when it has no such parts (the default).
     */
    default List<ScanPartition> parts(ScanPartition range) {
        return List.of(range);
    }

    /** {@link #inferSchema(String, Map)} with the format's default options. */
    default Schema inferSchema(String location) {
        return inferSchema(location, Map.of());
    }

    /** {@link #partitions(String, Map)} with the format's default options. */
    default List<ScanPartition> partitions(String location) {
        return partitions(location, Map.of());
    }

    /** {@link #read(ScanPartition, Schema, List, int, BufferAllocator, Map)} with the format's default options. */
    default BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator) {
        return read(partition, tableSchema, columns, batchSize, allocator, Map.of());
    }

    /** The argument checks every {@link #read} makes: a partition, an allocator and a positive batch size. */
    static void checkReadArguments(ScanPartition partition, BufferAllocator allocator, int batchSize) {
        java.util.Objects.requireNonNull(partition, "partition is null");
        java.util.Objects.requireNonNull(allocator, "allocator is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
    }
}
