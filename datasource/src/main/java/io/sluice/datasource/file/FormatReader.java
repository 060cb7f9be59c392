package io.sluice.datasource.file;

import io.sluice.common.types.Schema;
import io.sluice.kernels.BatchStream;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Reads one file format. A location is anything {@link SourceFiles} lists (a file, a directory, a
 * glob, several of these), as plain paths or any Hadoop {@code FileSystem} URI; the scan calls
 * {@link #inferSchema} and {@link #partitions} with one file at a time. Hive partition columns are
 * not the reader's concern: the scan prunes files by them and adds their values to the batches
 * ({@link PartitionValuesStream}), so {@link #read} is only asked for columns the files hold.
 * Implementations are stateless and thread-safe.
 */
public interface FormatReader {
    /** The schema of the data at {@code location}, found from its first file. */
    Schema inferSchema(String location);

    /**
     * The units of scan work at {@code location}, in file order: one per CSV file, one per non-empty
     * Parquet row group. Paths in the result are fully qualified, so any node can open them.
     */
    List<ScanPartition> partitions(String location);

    /**
     * Streams one partition. Each batch holds exactly {@code columns} (names of {@code tableSchema},
     * in that order) and at most {@code batchSize} rows; batches are allocated from
     * {@code allocator} and owned by the caller. Closing the stream releases the file, whether or
     * not the stream was drained.
     */
    BatchStream read(ScanPartition partition, Schema tableSchema, List<String> columns, int batchSize,
            BufferAllocator allocator);
}
